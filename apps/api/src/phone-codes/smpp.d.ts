// smpp ships no types: only what SmppGateway and its test's loopback SMSC use.
declare module 'smpp' {
  import { EventEmitter } from 'node:events';

  interface Pdu {
    command: string;
    command_status: number;
    system_id?: string;
    password?: string;
    source_addr?: string;
    destination_addr?: string;
    short_message?: { message?: string } | Buffer | string;
    response(options?: Record<string, unknown>): Pdu;
  }

  class Session extends EventEmitter {
    bind_transmitter(options: Record<string, unknown>, callback: (pdu: Pdu) => void): void;
    submit_sm(options: Record<string, unknown>, callback: (pdu: Pdu) => void): void;
    unbind(callback?: (pdu: Pdu) => void): void;
    send(pdu: Pdu): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  interface Server extends EventEmitter {
    listen(port: number, host: string, callback: () => void): void;
    address(): { port: number };
    close(callback?: () => void): void;
  }

  function connect(options: { host: string; port: number; tls?: boolean; servername?: string }): Session;
  /** sessions come as the server's `session` events */
  function createServer(): Server;

  const ESME_ROK: number;
  const ESME_RBINDFAIL: number;
  const ESME_RSUBMITFAIL: number;
}
