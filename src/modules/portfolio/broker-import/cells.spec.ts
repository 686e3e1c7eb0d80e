import { brokerDate, CellError, money } from './cells';
import { ratioOfAddedShares } from './ledger-fit';

describe('broker cells', () => {
  it('reads money the way brokers write it', () => {
    expect(money('$1,259.59')).toBe(1259.59);
    expect(money('-$694.48')).toBe(-694.48);
    expect(money('$-0.88')).toBe(-0.88);
    expect(money('($1,500.36)')).toBe(-1500.36);
    expect(money('(10,000.00)')).toBe(-10000);
    expect(money('$2.30 ')).toBe(2.3);
    expect(money('-2.637591265E-4')).toBe(-2.637591265e-4);
    expect(money('--')).toBeNull();
    expect(money('-')).toBeNull();
    expect(money('')).toBeNull();
    expect(() => money('3S', 'Quantity')).toThrow(new CellError('Quantity "3S" is not a number'));
  });

  it('reads dates the way brokers write them, an "as of" date being the trade date', () => {
    expect(brokerDate('12/7/2023')).toBe('2023-12-07');
    expect(brokerDate('03/02/21')).toBe('2021-03-02');
    expect(brokerDate('2024-01-03, 10:15:00')).toBe('2024-01-03');
    expect(brokerDate('20230403;095853')).toBe('2023-04-03');
    expect(brokerDate('07/15/2024 as of 07/12/2024')).toBe('2024-07-12');
    expect(brokerDate(' 06/26/2025 02:38:22 PM EDT')).toBe('2025-06-26');
    expect(() => brokerDate('02/30/2024')).toThrow('date "02/30/2024" is not a date');
  });

  it('turns the shares a split added into its ratio, or none when it is not a whole-number one', () => {
    expect(ratioOfAddedShares(1, 9)).toEqual({ to: 10, from: 1 });
    expect(ratioOfAddedShares(100, 50)).toEqual({ to: 3, from: 2 });
    expect(ratioOfAddedShares(33.3333, 66.6666)).toEqual({ to: 3, from: 1 });
    expect(ratioOfAddedShares(7, 1)).toEqual({ to: 8, from: 7 });
    expect(ratioOfAddedShares(3, 0.0123)).toBeNull();
  });
});
