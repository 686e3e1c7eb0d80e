import { listeningMessage } from './listening-message';

describe('listeningMessage', () => {
  it('names localhost when the service listens on every interface', () => {
    expect(listeningMessage({ address: '0.0.0.0', family: 'IPv4', port: 8000 }, true)).toBe(
      'API at http://localhost:8000/api/v1, docs at http://localhost:8000/docs',
    );
    expect(listeningMessage({ address: '::', family: 'IPv6', port: 8000 }, true)).toContain(
      'http://localhost:8000',
    );
  });

  it('names a specific address, IPv6 in brackets', () => {
    expect(listeningMessage({ address: '127.0.0.1', family: 'IPv4', port: 7400 }, true)).toContain(
      'http://127.0.0.1:7400/api/v1',
    );
    expect(listeningMessage({ address: '::1', family: 'IPv6', port: 7400 }, true)).toContain(
      'http://[::1]:7400/docs',
    );
  });

  it('says the docs are off when they are', () => {
    expect(listeningMessage({ address: '0.0.0.0', family: 'IPv4', port: 8000 }, false)).toBe(
      'API at http://localhost:8000/api/v1 (docs off: DOCS_ENABLED=false)',
    );
  });

  it('names the web app when it is served', () => {
    expect(listeningMessage({ address: '0.0.0.0', family: 'IPv4', port: 8000 }, true, true)).toBe(
      'API at http://localhost:8000/api/v1, docs at http://localhost:8000/docs, web app at http://localhost:8000/',
    );
  });
});
