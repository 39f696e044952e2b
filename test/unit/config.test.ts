import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../runtime/config.js';

describe('loadConfig', () => {
  it('applies defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ELASTICSEARCH_URL).toBeUndefined();
    expect(config.FIRMENBUCH_URL).toBe('https://justizonline.gv.at/jop/api/at.gv.justiz.fbw/ws');
  });

  it('flushes usage counts every 5 s by default, never less often than once a minute (the most a Redis crash can cost)', () => {
    expect(loadConfig({}).USAGE_FLUSH_INTERVAL_SECONDS).toBe(5);
    expect(loadConfig({ USAGE_FLUSH_INTERVAL_SECONDS: '0.5' }).USAGE_FLUSH_INTERVAL_SECONDS).toBe(0.5);
    expect(() => loadConfig({ USAGE_FLUSH_INTERVAL_SECONDS: '61' })).toThrow(ConfigError);
  });

  it('reads CORS_ORIGINS as a list of exact origins or *, none by default', () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' https://app.example.org, http://localhost:5173 ,' }).CORS_ORIGINS).toEqual(['https://app.example.org', 'http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
    // A path (or a bare host) is no origin: a browser never sends one, so it would silently allow nothing.
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.org/' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.org' })).toThrow(ConfigError);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ ELASTICSEARCH_URL: '', REDIS_URL: ' ' }).ELASTICSEARCH_URL).toBeUndefined();
  });

  it('lists every invalid variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', GISA_URL: 'nope', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
    expect(problems).toEqual(['DATABASE_URL', 'GISA_URL', 'LOG_LEVEL', 'PORT']);
  });
});
