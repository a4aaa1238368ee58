/**
 * The admin endpoints, one thin handler each (validate -> one use case -> JSON). They are what the
 * spec leaves to a dashboard: accounts and their KYC status, API keys (issue, list, revoke, usage),
 * the fee reserve's spend per account and the test cluster's faucet. Never part of `/v1`, never on a public interface.
 */

import { AmountError, parseDecimalAmount, USDG_DECIMALS } from "@cpay/sdk";
import { type Router as ExpressRouter, Router } from "express";
import { z } from "zod";
import { accountView } from "../../accounts/account-view";
import { AccountInputError, createAccount } from "../../accounts/create-account";
import { fundTestAccount } from "../../accounts/fund-test-account";
import { AdminError } from "../../admin/admin-error";
import { accountByHandle } from "../../admin/find-account";
import { keyById } from "../../admin/find-key";
import { listAccounts } from "../../admin/list-accounts";
import { reserveSpend } from "../../admin/reserve-spend";
import { setKycStatus } from "../../admin/set-kyc-status";
import type { UsdgFaucet } from "../../chain/usdg-faucet";
import type { ServiceContext } from "../../core/service-context";
import { issueEnrollmentLink } from "../../dashboard-auth/enrollment-links";
import { issueApiKey } from "../../keys/issue-key";
import { listApiKeys, revokeApiKey, viewOfKey } from "../../keys/manage-keys";

const ZKycStatus = z.enum(["unverified", "pending", "verified", "enhanced"]);

const ZCreateAccount = z.strictObject({
  handle: z.string().min(1).max(64),
  type: z.enum(["personal", "business"]),
  kyc_status: ZKycStatus,
});
const ZSetKyc = z.strictObject({ kyc_status: ZKycStatus });
const ZIssueKey = z.strictObject({
  name: z.string().min(1).max(100),
  environment: z.enum(["test", "live"]).optional(),
});
const ZFund = z.strictObject({
  confidential: z.string().default("0"),
  public: z.string().default("0"),
});

/** The `/admin` routes over `service`. */
export function adminRoutes(service: ServiceContext, faucet: UsdgFaucet | null): ExpressRouter {
  const router = Router();

  router.get("/accounts", async (_request, response) => {
    const rows = await listAccounts(service);
    response.json({ accounts: rows.map(accountView) });
  });

  router.post("/accounts", async (request, response) => {
    const input = parse(ZCreateAccount, request.body);
    try {
      const created = await createAccount(service, {
        handle: input.handle,
        type: input.type,
        kycStatus: input.kyc_status,
      });
      // The holder's way into the dashboard: a one-time link to register a first passkey.
      const enrollment = await issueEnrollmentLink(service, created.account);
      response.status(201).json({
        account: accountView(created.account),
        confidential_secret: created.confidentialSecret,
        enrollment_link: enrollment.link,
        enrollment_link_expires_at: enrollment.expiresAt,
      });
    } catch (error) {
      if (error instanceof AccountInputError) throw new AdminError("invalid_request", error.message);
      throw error;
    }
  });

  router.post("/accounts/:handle/kyc", async (request, response) => {
    const input = parse(ZSetKyc, request.body);
    const account = await accountByHandle(service, String(request.params.handle));
    response.json({ account: accountView(await setKycStatus(service, account, input.kyc_status)) });
  });

  router.post("/accounts/:handle/enrollment-link", async (request, response) => {
    parse(z.strictObject({}), request.body);
    const account = await accountByHandle(service, String(request.params.handle));
    if (account.type === "agent") {
      throw new AdminError(
        "not_allowed",
        `${account.handle} is an agent: agents never sign in to the dashboard`,
      );
    }
    const enrollment = await issueEnrollmentLink(service, account);
    response.status(201).json({
      account: accountView(account),
      enrollment_link: enrollment.link,
      enrollment_link_expires_at: enrollment.expiresAt,
    });
  });

  router.post("/accounts/:handle/keys", async (request, response) => {
    const input = parse(ZIssueKey, request.body);
    const account = await accountByHandle(service, String(request.params.handle));
    const environment = input.environment ?? service.environment;
    // A key belongs to its environment's database. Only while there is no live environment may the
    // test one hold a svc_live_ key (refused with 403 live_mode_unavailable, as it always was).
    if (
      environment !== service.environment &&
      (service.environment === "live" || service.config.liveModeAvailable)
    ) {
      throw new AdminError(
        "invalid_request",
        `a svc_${environment}_ key is issued in the ${environment} environment (--environment ${environment}), not the ${service.environment} one`,
      );
    }
    const issued = await issueApiKey(service, { accountId: account.id, name: input.name, environment });
    const [view] = (await listApiKeys(service, account.id)).filter((key) => key.id === issued.id);
    response.status(201).json({
      key: view,
      value: issued.value,
      account: accountView(account),
      live_mode_available: service.config.liveModeAvailable,
    });
  });

  router.get("/accounts/:handle/keys", async (request, response) => {
    const account = await accountByHandle(service, String(request.params.handle));
    response.json({ account: accountView(account), keys: await listApiKeys(service, account.id) });
  });

  router.get("/keys/:key_id", async (request, response) => {
    const { key, account } = await keyById(service, String(request.params.key_id));
    response.json({ key: viewOfKey(key), account: accountView(account) });
  });

  router.post("/keys/:key_id/revoke", async (request, response) => {
    const { key } = await keyById(service, String(request.params.key_id));
    const revoked = await revokeApiKey(service, key.id);
    if (revoked === null)
      throw new AdminError("conflict", `${key.id} was already revoked at ${key.revokedAt}`);
    response.json({ key: revoked });
  });

  router.post("/accounts/:handle/fund", async (request, response) => {
    const input = parse(ZFund, request.body);
    const account = await accountByHandle(service, String(request.params.handle));
    const amounts = {
      confidential: usdgUnits(input.confidential, "confidential"),
      public: usdgUnits(input.public, "public"),
    };
    if (amounts.confidential === 0n && amounts.public === 0n) {
      throw new AdminError("invalid_request", "fund a positive amount");
    }
    if (faucet === null) {
      throw new AdminError("not_allowed", "this cluster has no test faucet: USDG cannot be minted here");
    }
    await fundTestAccount(service, faucet, account, amounts);
    response.json({ account: accountView(account), funded: true });
  });

  router.get("/reserve", async (request, response) => {
    const day = request.query.day;
    if (day !== undefined && (typeof day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(day))) {
      throw new AdminError("invalid_request", "day: a UTC day, YYYY-MM-DD");
    }
    response.json(await reserveSpend(service, day));
  });

  return router;
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.join(".") || "body";
  const what = issue?.code === "unrecognized_keys" ? `unknown field "${issue.keys[0]}"` : issue?.message;
  throw new AdminError("invalid_request", `${where}: ${what ?? "invalid"}`);
}

function usdgUnits(value: string, field: string): bigint {
  try {
    return parseDecimalAmount(value, USDG_DECIMALS);
  } catch (error) {
    if (error instanceof AmountError) throw new AdminError("invalid_request", `${field}: ${error.message}`);
    throw error;
  }
}
