/**
 * One world per run, the topology of scripts/start.sh on free ports: the localnet as its own
 * process, the API (with its admin listener; it serves the built dashboard at `/`) and the indexer,
 * all over JSON-RPC; beside it a live environment on a second localnet (live-environment.ts, not
 * indexed) with one account, @liveholder, and its enrollment link. Then it is seeded as an operator and an integration would: the API's start
 * makes @demo (funded, KYC verified) and @merchant; the admin listener makes a stranger (whose
 * secret the unlock step must refuse), funds an agent of @demo whose policy holds transfers above
 * a low threshold, and issues the enrollment link; @demo's key sends a confidential transfer with
 * a memo, after a page of 100 public ones (bulk-transfers.ts). Everything a test needs is written to a file (CPAY_BROWSER_WORLD); the returned function
 * stops the processes.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { apiProcess, startApi } from "../../support/api-process";
import { localnetIndexerProcess } from "../../support/indexer-process";
import { startLocalnetProcess } from "../../support/localnet-process";
import { admin, confirmedTransfer, v1 } from "./admin-client";
import { BULK_TRANSFERS, bulkUnits, sendBulkTransfers } from "./bulk-transfers";
import { enrollmentLink } from "./enrollment-link";
import { freePort } from "./free-port";
import { startLiveCluster } from "./live-environment";
import { amountForms, memoForms, secretForms, usdgDecimal } from "./plaintext-forms";
import { startWebhookReceiver } from "./webhook-receiver";
import { type BrowserWorld, setWorldFile } from "./world";

const REPO = resolve(import.meta.dirname, "../../..");
const DASHBOARD_INDEX = join(REPO, "dashboard/dist/index.html");
/** The seeded transfer: digits that occur nowhere else in the world (base units 13579246). */
const TRANSFER_UNITS = 13_579_246n;
/** What the API's start funds @demo with, confidentially (api/src/admin/demo-accounts.ts). */
const DEMO_CONFIDENTIAL_UNITS = 1_000_000_000n;
const OWNER_BALANCE_UNITS = DEMO_CONFIDENTIAL_UNITS - TRANSFER_UNITS;
/** The live environment's account (live.ts signs its holder in). */
const LIVE_HANDLE = "@liveholder";
/** The agent holds anything above 5 USDG for its owner. */
const AGENT_POLICY = {
  per_transaction_limit_usdg: 100,
  daily_limit_usdg: 250,
  hitl_threshold_usdg: 5,
  assets: ["USDG"],
};

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(DASHBOARD_INDEX)) {
    throw new Error(
      `the dashboard is not built (${DASHBOARD_INDEX} is missing): npm run build --workspace @cpay/dashboard`,
    );
  }
  const started = Date.now();
  const mark = (what: string) =>
    console.log(`browser world: ${what} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const dir = mkdtempSync(join(tmpdir(), "cpay-browser-"));
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    const stopping = Date.now();
    for (const stop of stops.reverse()) await stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    console.log(`browser world: stopped in ${((Date.now() - stopping) / 1000).toFixed(1)} s`);
  };
  try {
    const receiver = await startWebhookReceiver();
    stops.push(receiver.close);
    const [localnet, live] = await Promise.all([
      startLocalnetProcess({ dir: join(dir, "localnet") }),
      startLiveCluster(dir),
    ]);
    stops.push(localnet.remove, live.remove);
    mark("localnets serving (test, and live with its program config)");

    const port = await freePort();
    const baseUrl = `http://localhost:${port}`;
    const adminToken = randomBytes(32).toString("base64url");
    const databaseUrl = join(dir, "cpay.sqlite");
    const api = apiProcess({
      PORT: String(port),
      ADMIN_PORT: "0",
      ADMIN_TOKEN: adminToken,
      SERVICE_MASTER_KEY: randomBytes(32).toString("hex"),
      DATABASE_URL: databaseUrl,
      LOCALNET_DIR: localnet.dir,
      DASHBOARD_ORIGIN: baseUrl,
      WEBHOOKS_ALLOW_LOCAL: "1",
      LOG_LEVEL: "warn",
      PROOF_WORKERS: "1",
      ...live.env,
    });
    stops.push(api.stop);
    const banner = await startApi(api);
    if (banner.demoSecret === null) throw new Error(`the API did not create @demo:\n${api.output()}`);
    mark("API serving");
    const indexer = localnetIndexerProcess(localnet, databaseUrl);
    stops.push(indexer.stop);
    // Its cold start (a tsx transpile) overlaps the seeding, which needs only the API.
    const following = indexer.start().then(() => mark("indexer following"));

    const operator = { adminUrl: banner.adminUrl, adminToken };
    const memo = `browser memo ${randomBytes(6).toString("hex")}`;
    // The seeded transfers and the agent are independent: made side by side, while the indexer
    // starts. The confidential transfer comes after the page of public ones, so it is the owner's
    // newest (the overview shows the five newest).
    const bulkSent = admin(operator, "POST", `/admin/accounts/${encodeURIComponent("@demo")}/fund`, {
      public: "200",
    }).then(() => sendBulkTransfers(baseUrl, banner.demoKey, "@merchant"));
    const [bulk, transfer, agent, stranger, link, liveHolder] = await Promise.all([
      bulkSent,
      bulkSent.then(async () => {
        const sent = await v1(baseUrl, banner.demoKey, "POST", "/v1/transfers", {
          to: "@merchant",
          amount: usdgDecimal(TRANSFER_UNITS),
          confidential: true,
          memo,
        });
        if (sent.status !== 201)
          throw new Error(`seed transfer: ${sent.status} ${JSON.stringify(sent.body)}`);
        const id = sent.body.transfer_id as string;
        await confirmedTransfer(baseUrl, banner.demoKey, id);
        return { id, amount: usdgDecimal(TRANSFER_UNITS), memo };
      }),
      (async () => {
        const created = await v1(baseUrl, banner.demoKey, "POST", "/v1/accounts/me/agents", {
          name: "bot",
          spend_policy: AGENT_POLICY,
        });
        if (created.status !== 201)
          throw new Error(`seed agent: ${created.status} ${JSON.stringify(created.body)}`);
        const handle = created.body.handle as string;
        await admin(operator, "POST", `/admin/accounts/${encodeURIComponent(handle)}/fund`, {
          confidential: "50",
        });
        const key = await admin(operator, "POST", `/admin/accounts/${encodeURIComponent(handle)}/keys`, {
          name: "agent key",
        });
        return {
          handle,
          accountId: created.body.account_id as string,
          apiKey: key.body.value as string,
          holdAbove: String(AGENT_POLICY.hitl_threshold_usdg),
        };
      })(),
      admin(operator, "POST", "/admin/accounts", {
        handle: "stranger",
        type: "personal",
        kyc_status: "verified",
      }),
      enrollmentLink(operator, "@demo"),
      admin(
        operator,
        "POST",
        "/admin/accounts",
        { handle: LIVE_HANDLE.slice(1), type: "business", kyc_status: "verified" },
        "live",
      ),
      following,
    ]);

    mark("world seeded");
    const world: BrowserWorld = {
      baseUrl,
      adminUrl: banner.adminUrl,
      adminToken,
      databasePath: databaseUrl,
      owner: {
        handle: "@demo",
        apiKey: banner.demoKey,
        secret: banner.demoSecret,
        confidentialBalance: usdgDecimal(OWNER_BALANCE_UNITS),
      },
      stranger: {
        handle: "@stranger",
        secret: stranger.body.confidential_secret as string,
        // Creating an account through the admin listener issues its first enrollment link.
        enrollmentLink: (stranger.body.enrollment_link as string | undefined) ?? null,
      },
      live: {
        handle: LIVE_HANDLE,
        enrollmentLink: liveHolder.body.enrollment_link as string,
      },
      recipient: "@merchant",
      localnetRpcUrl: localnet.rpcUrl(),
      agent,
      transfer,
      bulkTransfers: bulk,
      enrollmentLink: link,
      webhookUrl: receiver.url,
      watched: [
        ...amountForms(TRANSFER_UNITS),
        ...amountForms(OWNER_BALANCE_UNITS),
        ...Array.from({ length: BULK_TRANSFERS }, (_, index) => amountForms(bulkUnits(index))).flat(),
        ...memoForms(memo),
        ...secretForms(banner.demoSecret),
        ...secretForms(stranger.body.confidential_secret as string),
        ...secretForms(liveHolder.body.confidential_secret as string),
      ],
    };
    const file = join(dir, "world.json");
    writeFileSync(file, JSON.stringify(world, null, 2), { mode: 0o600 });
    setWorldFile(file);
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}
