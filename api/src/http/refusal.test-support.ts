/**
 * For the limits' unit tests (rate-limit.test.ts, auth-failure-limit.test.ts): the `ApiError` a
 * check refused with, or null when it let the request through; anything else is rethrown.
 */
import { ApiError } from "../core/api-error";

export async function refusalOf(run: () => Promise<void>): Promise<ApiError | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}
