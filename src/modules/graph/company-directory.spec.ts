import { loadCompanyDirectory } from './company-directory';

describe('the company directory', () => {
  it('holds the 505 shipped companies, empty source fields as null', async () => {
    const companies = await loadCompanyDirectory();
    expect(companies).toHaveLength(505);
    expect(companies.find((company) => company.symbol === 'NVDA')).toMatchObject({
      name: 'Nvidia Corporation',
      sector: 'Information Technology',
      subIndustry: 'Semiconductors',
      headquarters: 'Santa Clara, California',
    });
    const fox = companies.find((company) => company.symbol === 'FOX')!;
    expect(fox.subIndustry).toBeNull();
    expect(companies.filter((company) => company.subIndustry !== null)).toHaveLength(394);
  });
});
