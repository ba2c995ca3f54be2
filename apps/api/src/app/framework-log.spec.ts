import pino from 'pino';
import { PinoNestLogger } from './request-log';

/** What Nest logs through our logger: its start-up chatter only at debug, everything else as it says. */
describe('Nest messages in the log', () => {
  function logger(level: pino.Level) {
    const lines: Array<Record<string, unknown>> = [];
    const nest = new PinoNestLogger(pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) }));
    return { nest, lines };
  }

  it.each(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'])(
    "leaves out %s's start-up lines at info, and keeps them at debug",
    (context) => {
      const atInfo = logger('info');
      atInfo.nest.log('Mapped {/ping, GET} route', context);
      expect(atInfo.lines).toEqual([]);
      const atDebug = logger('debug');
      atDebug.nest.log('Mapped {/ping, GET} route', context);
      expect(atDebug.lines).toEqual([expect.objectContaining({ level: 20, context, msg: 'Mapped {/ping, GET} route' })]);
    },
  );

  it("keeps the framework's warnings and errors, and our own services' lines, at their level", () => {
    const { nest, lines } = logger('info');
    nest.warn('something odd', 'NestApplication');
    nest.error('it broke', 'stack…', 'RouterExplorer');
    nest.log('approvals: polling Telegram', 'TelegramUpdates');
    expect(lines.map((l) => [l['level'], l['context']])).toEqual([
      [40, 'NestApplication'],
      [50, 'RouterExplorer'],
      [30, 'TelegramUpdates'],
    ]);
  });
});
