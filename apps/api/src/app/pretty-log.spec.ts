import { createLogger, prettyDestination, prettyLine } from './logger';

describe('pretty logs for a terminal', () => {
  it('writes time, level, message and the other fields on one line', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 4, 20, 10, 0, 1, 23),
        pid: 1,
        hostname: 'h',
        service: 'twofold-api',
        msg: 'Twofold API listening',
        port: 3000,
        publicUrl: 'http://localhost:3000',
      }),
    );
    expect(line).toBe('10:00:01.023 INFO  Twofold API listening port=3000 publicUrl=http://localhost:3000\n');
  });

  it('quotes values with spaces, shows objects as JSON and an error with its stack below', () => {
    const error = new Error('boom');
    const line = prettyLine(
      JSON.stringify({ level: 50, time: 0, msg: 'failed', reason: 'a b', req: { id: 1 }, err: { message: 'boom', stack: error.stack } }),
    );
    expect(line.split('\n')[0]).toBe('00:00:00.000 ERROR failed reason="a b" req={"id":1} err="boom"');
    expect(line).toContain('\n    Error: boom\n    ');
  });

  it('colours warnings and errors only when asked', () => {
    expect(prettyLine(JSON.stringify({ level: 40, time: 0, msg: 'w' }), true)).toBe('00:00:00.000 \x1b[33mWARN \x1b[0m w\n');
    expect(prettyLine(JSON.stringify({ level: 40, time: 0, msg: 'w' }))).toBe('00:00:00.000 WARN  w\n');
  });

  it('keeps redaction: the logger redacts before the line is formatted', () => {
    let out = '';
    const log = createLogger(
      'info',
      prettyDestination((text) => (out += text)),
    );
    log.info({ req: { headers: { authorization: 'Basic c2VjcmV0' } } }, 'request');
    expect(out).toMatch(/ INFO {2}request req=\{"headers":\{"authorization":"\[redacted\]"\}\}/);
    expect(out).not.toContain('c2VjcmV0');
  });

  it('passes a line that is not JSON through', () => {
    expect(prettyLine('plain')).toBe('plain\n');
  });
});
