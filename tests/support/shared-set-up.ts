/**
 * What a describe block (or a file) sets up for its tests, handed to them as one object: `perSuite`
 * makes it once before the first test (beforeAll) and `perTestCase` afresh before each (beforeEach).
 * The object is filled in place, so a suite reads `given.world` in its tests instead of declaring a
 * `let` per value and assigning each in its hooks. Read it inside tests and hooks only: it is empty
 * until its set-up has run.
 *
 * `setUp` cleans up after itself when it fails part-way (nothing is torn down for it then);
 * `tearDown` runs after the last test (perSuite) or after each test (perTestCase).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

type Hook = (run: () => Promise<void>) => void;

export function perSuite<T extends object>(
  setUp: () => Promise<T>,
  tearDown?: (value: T) => Promise<void>,
): T {
  return filledBy(beforeAll, afterAll, setUp, tearDown);
}

export function perTestCase<T extends object>(
  setUp: () => Promise<T>,
  tearDown?: (value: T) => Promise<void>,
): T {
  return filledBy(beforeEach, afterEach, setUp, tearDown);
}

function filledBy<T extends object>(
  before: Hook,
  after: Hook,
  setUp: () => Promise<T>,
  tearDown: ((value: T) => Promise<void>) | undefined,
): T {
  // Filled by `before`; typed as what it will hold, since tests only read it after that.
  const given = {} as T;
  let made = false;
  before(async () => {
    made = false;
    Object.assign(given, await setUp());
    made = true;
  });
  after(async () => {
    if (made) await tearDown?.(given);
  });
  return given;
}
