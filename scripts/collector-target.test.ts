import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectorEndpoint, projectKey } from './collector-target.ts';

const dir = mkdtempSync(join(tmpdir(), 'rf-target-'));
const keysFile = join(dir, 'dev-keys.json');
writeFileSync(keysFile, JSON.stringify({ write: 'rfw_dev', server: 'rfs_dev', admin: 'rfa_dev', viewer: 'rfv_dev' }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  for (const name of ['RF_ENDPOINT', 'RF_ADMIN_KEY', 'RF_SERVER_KEY', 'PORT']) vi.stubEnv(name, undefined);
});
afterEach(() => vi.unstubAllEnvs());

describe('the collector the command-line tools talk to', () => {
  it('is the flag, else RF_ENDPOINT, else the local one on PORT, without a trailing slash', () => {
    expect(collectorEndpoint('https://feedback.example.com/')).toBe('https://feedback.example.com');
    vi.stubEnv('RF_ENDPOINT', 'https://feedback.example.com/rf');
    expect(collectorEndpoint()).toBe('https://feedback.example.com/rf');
    vi.stubEnv('RF_ENDPOINT', undefined);
    vi.stubEnv('PORT', '8790');
    expect(collectorEndpoint()).toBe('http://127.0.0.1:8790');
  });

  it('refuses what is not an http(s) URL, or a PORT that is not a port, naming where it came from', () => {
    expect(() => collectorEndpoint('feedback.example.com')).toThrow(
      '--endpoint is not an http(s) URL: "feedback.example.com" (say https://feedback.example.com)',
    );
    expect(() => collectorEndpoint('ftp://feedback.example.com')).toThrow('--endpoint is not an http(s) URL');
    vi.stubEnv('RF_ENDPOINT', '127.0.0.1:8787');
    expect(() => collectorEndpoint()).toThrow('RF_ENDPOINT is not an http(s) URL');
    // Read with its line break or a space: every request would go to a URL that cannot be parsed ("…:8787 /v1/admin")
    // or to another path ("…/ /v1/admin" is "/%20/v1/admin", a 404).
    vi.stubEnv('RF_ENDPOINT', 'https://feedback.example.com/\n');
    expect(() => collectorEndpoint()).toThrow('RF_ENDPOINT is not an http(s) URL: "https://feedback.example.com/\\n"');
    expect(() => collectorEndpoint('http://127.0.0.1:8787 ')).toThrow('--endpoint is not an http(s) URL: "http://127.0.0.1:8787 "');
    // A user name and password in it (fetch refuses the URL, and its error repeats the password), a query or a fragment (each
    // request's path is put after it, reaching the collector's root): said as such, the password not repeated.
    expect(() => collectorEndpoint('https://feedback:s3cret@feedback.example.com')).toThrow(
      '--endpoint must not hold a user name or password (fetch refuses such a URL): https://feedback.example.com/ without them',
    );
    vi.stubEnv('RF_ENDPOINT', 'https://feedback:s3cret@feedback.example.com\n');
    expect(() => collectorEndpoint()).toThrow('RF_ENDPOINT is not an http(s) URL: "https://feedback.example.com\\n"');
    vi.stubEnv('RF_ENDPOINT', 'https://feedback.example.com/?project=a');
    expect(() => collectorEndpoint()).toThrow(`RF_ENDPOINT must be the collector's address alone, without a query or fragment`);
    vi.stubEnv('RF_ENDPOINT', undefined);
    for (const port of ['abc', '-1', '0', '70000']) {
      vi.stubEnv('PORT', port);
      expect(() => collectorEndpoint()).toThrow(`PORT must be a whole number from 1 to 65535, not "${port}"`);
    }
  });

  it("sends the dev project's keys to the local collector alone", () => {
    expect(projectKey('admin', 'http://127.0.0.1:8787', undefined, keysFile)).toEqual({ key: 'rfa_dev', given: false });
    expect(projectKey('server', 'http://localhost:8787', undefined, keysFile)).toEqual({ key: 'rfs_dev', given: false });
    expect(() => projectKey('admin', 'https://feedback.example.com', undefined, keysFile)).toThrow(
      "No admin key for https://feedback.example.com: pass --admin-key (or set RF_ADMIN_KEY); the dev project's keys are for the local collector alone",
    );
    expect(projectKey('admin', 'https://feedback.example.com', 'rfa_prod', keysFile)).toEqual({ key: 'rfa_prod', given: true });
    vi.stubEnv('RF_SERVER_KEY', 'rfs_prod');
    expect(projectKey('server', 'https://feedback.example.com', undefined, keysFile)).toEqual({ key: 'rfs_prod', given: true });
  });
});
