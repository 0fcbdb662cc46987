import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.env).toBe('development');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
  });

  it('reads overrides and treats empty values as unset', () => {
    const config = loadConfig({ PORT: '8080', DATA_DIR: '/tmp/x', DATABASE_URL: '', LOG_LEVEL: 'warn' });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/tmp/x');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.logLevel).toBe('warn');
  });

  it('names the variable and value in the error for a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL="mysql:\/\/x": must be a postgres/,
    );
    expect(() => loadConfig({ NODE_ENV: 'staging', PORT: '99999' })).toThrow(
      /NODE_ENV[\s\S]*PORT|PORT[\s\S]*NODE_ENV/,
    );
  });

  it('reads TRUST_PROXY as trusted hops or proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    // `1`/`true` used to mean "believe every X-Forwarded-For entry"; now they mean one proxy hop.
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
    ]);
    for (const bad of ['yes', '-1', '10.0.0.1/33', '10.0.0.300', '10.0.0.1,', 'loopback']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });
});
