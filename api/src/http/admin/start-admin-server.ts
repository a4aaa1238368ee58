/**
 * Starts the admin listener next to `/v1`: the admin app (admin-app.ts) on 127.0.0.1 only, on
 * `ADMIN_PORT`, with the admin token (admin-settings.ts). It runs inside the service process
 * because the embedded cluster lives there: the admin CLI talks to it over HTTP.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AdminSettings, loadAdminSettings } from "../../admin/admin-settings";
import type { UsdgFaucet } from "../../chain/usdg-faucet";
import { type AdminEnvironments, createAdminApp } from "./admin-app";

/** Loopback only: the admin surface can create accounts and move test funds. */
const ADMIN_HOST = "127.0.0.1";

export interface AdminServer {
  readonly url: string;
  readonly settings: AdminSettings;
  close(): Promise<void>;
}

/** Listens; resolves once the port is bound (ConfigError for bad settings, a listen error otherwise). */
export async function startAdminServer(
  environments: AdminEnvironments,
  options: {
    readonly env: NodeJS.ProcessEnv;
    readonly dataDir: string;
    /** The test cluster's USDG faucet, for `fund`; null where the cluster has none (`fund` is refused). */
    readonly faucet: UsdgFaucet | null;
  },
): Promise<AdminServer> {
  const settings = loadAdminSettings(options.env, options.dataDir);
  const app = createAdminApp(environments, settings.token, options.faucet);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(settings.port, ADMIN_HOST, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${ADMIN_HOST}:${port}`,
    settings,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
