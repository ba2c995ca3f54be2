import { connect } from 'smpp';
import { SmppGatewaySettings } from '@twofold/domain';
import { GatewayFailure, GatewayResult, PhoneGateway, PhoneMessage } from './phone-gateway';

/** SMPP's status of success (`ESME_ROK`). */
const SMPP_OK = 0;

/**
 * An SMS centre over SMPP: a session per message (connect, bind as a transmitter, `submit_sm`,
 * unbind), since codes are rare and a long-lived bind would need its own reconnect and keep-alive.
 * The whole exchange is bounded by the gateway's timeout (at most 10 s, as for an HTTP gateway).
 * A refused bind or submit is a `status` failure; a connection that fails or closes early is
 * `unreachable`. The SMSC's answers are never logged or shown. SMS only: a call needs a voice
 * provider's HTTP API.
 */
export class SmppGateway implements PhoneGateway {
  constructor(private readonly settings: SmppGatewaySettings) {}

  send(message: PhoneMessage): Promise<GatewayResult> {
    const { settings } = this;
    return new Promise((resolve) => {
      const session = connect({ host: settings.host, port: settings.port, tls: settings.tls, servername: settings.host });
      let settled = false;
      const finish = (result: GatewayResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (result.sent) session.unbind(() => session.close());
        else session.destroy();
        resolve(result);
      };
      const fail = (failure: GatewayFailure) => finish({ sent: false, failure });
      const timer = setTimeout(() => fail('timeout'), settings.timeoutMs);
      session.on('error', () => fail('unreachable'));
      session.on('close', () => fail('unreachable'));
      session.bind_transmitter({ system_id: settings.systemId, password: settings.password }, (bound) => {
        if (bound.command_status !== SMPP_OK) return fail('status');
        session.submit_sm(
          {
            ...(settings.sourceAddr ? { source_addr: settings.sourceAddr } : {}),
            // E.164 without its `+`, international numbering plan (ton 1, npi 1)
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            destination_addr: message.phone.replace(/^\+/, ''),
            short_message: message.text,
          },
          (submitted) => (submitted.command_status === SMPP_OK ? finish({ sent: true }) : fail('status')),
        );
      });
    });
  }
}
