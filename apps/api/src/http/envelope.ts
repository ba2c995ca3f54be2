import { Page } from '@twofold/domain';

/** `{model, success, message}`: the envelope of user, authenticator, access-request and management responses. */
export interface ModelEnvelope<T> {
  model: T;
  success: boolean;
  message: string | null;
}

export function ok<T>(model: T, message: string | null = null): ModelEnvelope<T> {
  return { model, success: true, message };
}

/**
 * An outcome a sign-in call answers as its result, 200 `success: false`: the
 * client reads it as the answer, so it is returned, not thrown, and carries no trace id.
 */
export function refused(message: string): ModelEnvelope<null> {
  return { model: null, success: false, message };
}

export interface PagedModel<T> {
  data: T[];
  offset: number;
  limit: number;
  totalElements: number;
}

/** One page of rows, mapped to their DTOs, with the window and the total. */
export function pagedModel<Row, Dto>(rows: Row[], totalElements: number, page: Page, toDto: (row: Row) => Dto): PagedModel<Dto> {
  return { data: rows.map(toDto), offset: page.offset, limit: page.limit, totalElements };
}
