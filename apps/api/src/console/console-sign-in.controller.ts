import { Controller, Delete, Get, HttpCode, HttpStatus, Inject, Post, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_PERMISSIONS, ConsolePermission, roleMay } from '@twofold/domain';
import { SessionRequired, RoleForbids } from '../http/api-errors';
import { ClientAddressResolver } from '../http/client-address';
import { Input } from '../http/parsed-input';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { CONSOLE_DOCS } from './console.openapi';
import { clearedConsoleSessionCookie, consoleSessionCookie, consoleSessionToken } from './console-session-cookie';
import { ConsoleSessionAuthenticator } from './console-session.authenticator';
import { ConsoleSessions } from './console-sessions';
import { parseSignInFinish, parseSignInStart } from './console-sign-in.input';
import { ConsoleSignInService } from './console-sign-in.service';
import { Clock, MailLanguage, RecordId } from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import { ConsoleDashboardFigures, ConsoleRepository, Db } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { AdminsService } from '../admins/admins.service';

/** What the console knows of who is signed in: enough to show and hide what the role allows. */
export interface ConsoleSessionView {
  csrfToken: string;
  administrator: { id: string; identity: string; role: string };
  accountId: string;
  permissions: ConsolePermission[];
}

function permissionsOf(role: string): ConsolePermission[] {
  return CONSOLE_PERMISSIONS.filter((permission) => roleMay(role, permission));
}

/**
 * Signing in to the administrators' console and its session. Everything else the console does goes
 * through the account API itself, authenticated by this session (console-session.authenticator.ts).
 */
@Controller({ path: 'console/api', version: VERSION_NEUTRAL })
@ApiFeature('Console')
export class ConsoleSignInController {
  constructor(
    private readonly signIns: ConsoleSignInService,
    private readonly sessions: ConsoleSessions,
    private readonly authenticator: ConsoleSessionAuthenticator,
    private readonly addresses: ClientAddressResolver,
    private readonly admins: AdminsService,
    private readonly db: Db,
    private readonly journal: JournalWriter,
    private readonly consoleRows: ConsoleRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @ApiRoute(CONSOLE_DOCS.start)
  @Post('sign-in')
  @HttpCode(HttpStatus.OK)
  async start(@Input('body', parseSignInStart) input: { email: string; language: MailLanguage | null }): Promise<Record<string, never>> {
    await this.signIns.start(input.email, input.language);
    return {};
  }

  @ApiRoute(CONSOLE_DOCS.finish)
  @Post('sign-in/finish')
  @HttpCode(HttpStatus.OK)
  async finish(
    @Input('body', parseSignInFinish) input: { email: string; emailCode: string; secondFactorCode: string },
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const address = this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']) ?? null;
    const signedIn = await this.signIns.finish({ ...input, address });
    res.header('set-cookie', consoleSessionCookie(signedIn.token));
    const admin = signedIn.administrator;
    return {
      csrfToken: signedIn.csrfToken,
      administrator: { id: admin.id, identity: admin.identity, role: admin.role },
      accountId: admin.accountId,
      permissions: permissionsOf(admin.role),
    };
  }

  @ApiRoute(CONSOLE_DOCS.session)
  @Get('session')
  async session(@Req() req: FastifyRequest): Promise<ConsoleSessionView> {
    const token = consoleSessionToken(req.headers.cookie);
    if (!token) throw new SessionRequired();
    const session = await this.sessions.withoutCsrf(token);
    if (typeof session === 'string') throw new SessionRequired();
    return {
      csrfToken: this.sessions.csrfTokenOf(token),
      administrator: { id: session.administratorId, identity: session.identity, role: session.role },
      accountId: session.accountId,
      permissions: permissionsOf(session.role),
    };
  }

  /**
   * An administrator locks themselves out of the console (a lost phone, leaving for good): their
   * sessions end and only another Admin unlocks them. Journaled `Employee SelfLock`.
   */
  @ApiRoute(CONSOLE_DOCS.selfLock)
  @Post('self-lock')
  @HttpCode(HttpStatus.OK)
  async selfLock(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<Record<string, never>> {
    const session = await this.authenticator.authenticateSession(req);
    await this.db.transaction(async () => {
      await this.admins.selfLock(session.accountId, session.administratorId as RecordId);
      await this.journal.record(session.accountId, {
        object: 'Employee',
        action: 'SelfLock',
        subject: session.identity,
        success: true,
        additionalFields: { EmployeeId: session.administratorId, EmployeeIdentity: session.identity },
      });
    });
    res.header('set-cookie', clearedConsoleSessionCookie());
    return {};
  }

  /** The first screen: licences, today's sign-ins (UTC day), lockouts in force, approvals waiting. Any role. */
  @ApiRoute(CONSOLE_DOCS.dashboard)
  @Get('dashboard')
  async dashboard(@Req() req: FastifyRequest): Promise<ConsoleDashboardFigures> {
    const session = await this.authenticator.authenticateSession(req);
    if (!roleMay(session.role, 'users.read')) throw new RoleForbids();
    const now = this.clock.now();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return this.consoleRows.dashboard(session.accountId, dayStart, now);
  }

  /** Signing out needs the CSRF token and the console's origin like any change: no other site can sign anyone out. */
  @ApiRoute(CONSOLE_DOCS.signOut)
  @Delete('session')
  @HttpCode(HttpStatus.OK)
  async signOut(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<Record<string, never>> {
    const session = await this.authenticator.authenticateSession(req);
    await this.sessions.end(session.id);
    res.header('set-cookie', clearedConsoleSessionCookie());
    return {};
  }
}
