/**
 * The official x402 facilitator, as a seller would run it: `@x402/core`'s `x402Facilitator` with
 * `@x402/svm`'s `ExactSvmScheme`, smart-wallet verification on and cpay's program the only program
 * on its allowed list, served over HTTP (`GET /supported`, `POST /verify`, `POST /settle`, the
 * shape `HTTPFacilitatorClient` speaks). Its fee payer is a key of its own, funded with SOL here;
 * its RPC is the localnet process, given per network (`toFacilitatorSvmSigner(signer, { [network]:
 * rpc })`: the single-RPC form does not accept kit's RPC objects). Each instance is a fresh
 * facilitator: its settlement cache starts empty, as after a restart or on another replica.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChainPort } from "@cpay/sdk/chain";
import { awaitLanding } from "@cpay/sdk/chain";
import { createSolanaRpc, generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorSvmSigner } from "@x402/svm";
import { ExactSvmScheme } from "@x402/svm/exact/facilitator";
import express from "express";

const FEE_PAYER_LAMPORTS = 10_000_000_000n;

export interface OfficialFacilitator {
  readonly url: string;
  readonly feePayer: KeyPairSigner;
  readonly facilitator: x402Facilitator;
  close(): Promise<void>;
}

interface FacilitatorRequest {
  readonly paymentPayload: PaymentPayload;
  readonly paymentRequirements: PaymentRequirements;
}

/**
 * A facilitator for `network` on the cluster `rpcUrl` serves, paying fees from `feePayer` (a new
 * funded key when none is given: give the same one to a second instance of the same seller).
 */
export async function startOfficialFacilitator(input: {
  readonly chain: ChainPort;
  readonly rpcUrl: string;
  readonly network: `solana:${string}`;
  readonly feePayer?: KeyPairSigner;
}): Promise<OfficialFacilitator> {
  const feePayer = input.feePayer ?? (await fundedKey(input.chain));
  const signer = toFacilitatorSvmSigner(feePayer, { [input.network]: createSolanaRpc(input.rpcUrl) });
  const facilitator = new x402Facilitator().register(
    input.network,
    new ExactSvmScheme(signer, undefined, {
      enableSmartWalletVerification: true,
      smartWalletAllowedPrograms: [input.chain.programId],
    }),
  );
  const app = express();
  app.use(express.json());
  app.get("/supported", (_request, response) => {
    response.json(facilitator.getSupported());
  });
  app.post("/verify", async (request, response) => {
    const body = request.body as FacilitatorRequest;
    response.json(await facilitator.verify(body.paymentPayload, body.paymentRequirements));
  });
  app.post("/settle", async (request, response) => {
    const body = request.body as FacilitatorRequest;
    response.json(await facilitator.settle(body.paymentPayload, body.paymentRequirements));
  });
  const server = await listen(app);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    feePayer,
    facilitator,
    close: () => closeServer(server),
  };
}

/** A new key holding FEE_PAYER_LAMPORTS, landed. */
async function fundedKey(chain: ChainPort): Promise<KeyPairSigner> {
  const key = await generateKeyPairSigner();
  const { blockhash } = await chain.getLatestBlockhash();
  const airdrop = await chain.requestAirdrop(key.address, FEE_PAYER_LAMPORTS);
  if ((await awaitLanding(chain, airdrop, blockhash)) === null) throw new Error("the airdrop did not land");
  return key;
}

export function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve(server));
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
