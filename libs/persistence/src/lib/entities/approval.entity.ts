import { AccountId, ApprovalChannel, ApprovalFactorKind, ApprovalRejectReason, ApprovalStatus } from '@twofold/domain';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What a transport keeps of a delivered message to change it later (Telegram: the chat and the message). */
export type ApprovalDeliveryRef = Record<string, string | number>;

/** A pending or decided approval of one access request (libs/domain approvals.ts). */
@Entity('approvals')
export class ApprovalEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'account_id', type: 'uuid' }) accountId!: AccountId;
  @Column({ name: 'access_request_id', type: 'uuid' }) accessRequestId!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'resource_id', type: 'uuid' }) resourceId!: string;
  /** the factor asked; null once that authenticator is deleted */
  @Column({ name: 'authenticator_id', type: 'uuid', nullable: true }) authenticatorId!: string | null;
  @Column({ type: 'text' }) factor!: ApprovalFactorKind;
  @Column({ type: 'text' }) channel!: ApprovalChannel;
  /** the address of the sign-in, as shown to the user */
  @Column({ type: 'text', nullable: true }) address!: string | null;
  @Column({ type: 'smallint', nullable: true }) number!: number | null;
  @Column({ type: 'smallint', array: true, nullable: true }) choices!: number[] | null;
  @Column({ type: 'text' }) status!: ApprovalStatus;
  @Column({ name: 'reject_reason', type: 'text', nullable: true }) rejectReason!: ApprovalRejectReason | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true }) decidedAt!: Date | null;
  /** who answered: `telegram:<chat id>`, or the device of the mobile app */
  @Column({ name: 'decided_by', type: 'text', nullable: true }) decidedBy!: string | null;
  /** the answering device's address (the mobile app; Telegram's servers hide the user's) */
  @Column({ name: 'decided_from_address', type: 'text', nullable: true }) decidedFromAddress!: string | null;
  @Column({ name: 'delivery_ref', type: 'jsonb', nullable: true }) deliveryRef!: ApprovalDeliveryRef | null;
}
