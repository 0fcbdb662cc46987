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

  it('reads the audit checkpoint settings and never repeats the key', () => {
    const defaults = loadConfig({ DATA_DIR: '/tmp/x' }).auditCheckpoint;
    expect(defaults).toEqual({
      key: undefined,
      file: '/tmp/x/audit-checkpoints.jsonl',
      intervalSeconds: 3600,
    });
    const key = 'k'.repeat(32);
    expect(
      loadConfig({
        AUDIT_CHECKPOINT_KEY: key,
        AUDIT_CHECKPOINT_FILE: '/var/cdms/anchor.jsonl',
        AUDIT_CHECKPOINT_INTERVAL_SECONDS: '0',
      }).auditCheckpoint,
    ).toEqual({ key, file: '/var/cdms/anchor.jsonl', intervalSeconds: 0 });
    const shortKey = 'too-short-secret';
    expect(() => loadConfig({ AUDIT_CHECKPOINT_KEY: shortKey })).toThrow(
      /AUDIT_CHECKPOINT_KEY=\(hidden\): must be at least 32 characters/,
    );
    const message = (() => {
      try {
        loadConfig({ AUDIT_CHECKPOINT_KEY: shortKey });
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).not.toContain(shortKey);
  });

  it('reads the SMTP settings and never repeats the URL, which may hold a password', () => {
    expect(loadConfig({}).smtp).toEqual({ url: undefined, from: 'CDMS <no-reply@localhost>' });
    const url = 'smtp://cdms:s3cret@mail.example.org:587';
    expect(loadConfig({ SMTP_URL: url, SMTP_FROM: 'CDMS <cdms@example.org>' }).smtp).toEqual({
      url,
      from: 'CDMS <cdms@example.org>',
    });
    const wrong = 'http://cdms:s3cret@mail.example.org';
    let message = '';
    try {
      loadConfig({ SMTP_URL: wrong });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SMTP_URL=\(hidden\): must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(message).not.toContain('s3cret');
  });

  it('takes an owner URL for migrations only together with DATABASE_URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://cdms_app@db/cdms',
      DATABASE_OWNER_URL: 'postgres://cdms_owner@db/cdms',
    });
    expect(config.databaseOwnerUrl).toBe('postgres://cdms_owner@db/cdms');
    expect(() => loadConfig({ DATABASE_OWNER_URL: 'postgres://cdms_owner@db/cdms' })).toThrow(
      /DATABASE_OWNER_URL is set without DATABASE_URL/,
    );
  });

  it('sizes the PostgreSQL connection pool, 8 unless told', () => {
    expect(loadConfig({}).databasePoolSize).toBe(8);
    expect(loadConfig({ DATABASE_POOL_SIZE: '20' }).databasePoolSize).toBe(20);
    for (const bad of ['0', '-1', '2.5', '101', 'many']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
});
