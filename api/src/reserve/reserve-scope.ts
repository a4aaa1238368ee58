/**
 * Who a use case spends the fee reserve for, and the signer that makes every transaction it signs
 * with the reserve count against that account's day (reserve-charges.ts). `withReserveSpend` opens
 * the scope (the HTTP layer opens one per request for the caller's owner; background jobs and the
 * service's own setup open theirs); `reservePayer` is the reserve as a kit signer inside it. That
 * signer computes, from the exact message bytes, the most the transaction can cost the reserve
 * (spend-bound.ts) and reserves it BEFORE signing — what it may lose against the account's day, the
 * rent it advances (receipts, holds) against its advance cap: a refusal (`429
 * reserve_budget_exhausted`) signs nothing. A use case that writes rows before it signs reserves up
 * front instead (`prepayReserve`), so a refusal also changes nothing; the signer then draws on that
 * first.
 *
 * When the scope ends, the reservations are settled to what the transactions cost: for each one
 * signed, the reserve's balance change in the landed transaction's meta (fee, rent deposited, minus
 * rent that came back in it), the rent it advanced and returned taken apart (advances.ts); one that
 * never landed cost nothing. "Never landed" is decided only once
 * it no longer can: a flow may end with a send whose answer was lost (the RPC timed out after the
 * bytes left), so each signature's blockhash is kept, and until it expires an unknown signature
 * keeps its reservation. A landed transaction's meta is readable only once it is `confirmed`, a slot or so
 * after it landed, so the scope does not wait for it: it records the spend (pending-spends.ts) and
 * the reconciler settles it in the background (reconcile-reserve.ts). Until then the reservations
 * stay held at their maximum, so the budget only ever counts more than was spent, never less.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { confirmedTransaction } from "@cpay/sdk/chain";
import {
  getBase58Decoder,
  type KeyPairSigner,
  type SignatureDictionary,
  type TransactionPartialSigner,
  type TransactionSigner,
} from "@solana/kit";
import { type RentExemptMinimum, rentExemptMinimumOf } from "../chain/rent";
import type { ServiceContext } from "../core/service-context";
import { recordPendingSpend } from "./pending-spends";
import { reconcileLater, reserveCostIn } from "./reconcile-reserve";
import {
  NO_CHARGE,
  type Reservation,
  type ReserveCharge,
  reserveLamports,
  settleReservation,
} from "./reserve-charges";
import { spendBoundOf } from "./spend-bound";

interface Scope {
  readonly service: ServiceContext;
  /** The account charged; null for the service's own setup (program config, the admin's test funding). */
  readonly accountId: string | null;
  readonly payer: TransactionPartialSigner & Pick<KeyPairSigner, "address">;
  readonly reservations: Reservation[];
  /** Reserved and not yet drawn on by a signed transaction. */
  prepaid: ReserveCharge;
  readonly signatures: string[];
  /** The blockhash each signed transaction names (when it expires, what was not seen never lands). */
  readonly blockhashes: Map<string, string>;
  /** The cluster's rent schedule (chain/rent.ts keeps it), taken once per scope (on its first signature). */
  rent: Promise<RentExemptMinimum> | null;
}

const scopes = new AsyncLocalStorage<Scope>();
const BASE58 = getBase58Decoder();

/**
 * Runs `work` spending the reserve for `accountId` (an agent's owner, never the agent), then
 * settles what it reserved to what landed. `null` spends it for the service itself, uncounted.
 */
export async function withReserveSpend<T>(
  service: ServiceContext,
  accountId: string | null,
  work: () => Promise<T>,
): Promise<T> {
  const outer = scopes.getStore();
  // A use case called from another keeps the outer scope: one account pays for the whole request.
  if (outer !== undefined && outer.service === service) return work();
  const scope: Scope = {
    service,
    accountId,
    payer: meteredPayer(service),
    reservations: [],
    rent: null,
    prepaid: NO_CHARGE,
    signatures: [],
    blockhashes: new Map(),
  };
  try {
    return await scopes.run(scope, work);
  } finally {
    await settle(scope);
  }
}

/** The fee reserve as the signer of the current scope (see the module doc). */
export function reservePayer(service: ServiceContext): TransactionSigner {
  const scope = scopeOf(service);
  // The service's own setup signs with the key itself: it also signs as the registrar there.
  return scope.accountId === null ? service.feePayer : scope.payer;
}

/**
 * Reserves, for transactions the scope will sign, `lamports` the reserve may lose and
 * `advanceLamports` of rent it advances (receipts, holds), before anything is written or signed;
 * `429 reserve_budget_exhausted` when the account's day or its advance cap has no room for them.
 */
export async function prepayReserve(
  service: ServiceContext,
  lamports: bigint,
  advanceLamports = 0n,
): Promise<void> {
  const scope = scopeOf(service);
  const charge = { loss: lamports, advance: advanceLamports };
  await reserveInScope(scope, charge);
  scope.prepaid = { loss: scope.prepaid.loss + charge.loss, advance: scope.prepaid.advance + charge.advance };
}

/** Counts a transaction the reserve signed outside `reservePayer` (the relay's co-signature). */
export function noteReserveSignature(service: ServiceContext, signature: string, blockhash: string): void {
  const scope = scopeOf(service);
  scope.signatures.push(signature);
  scope.blockhashes.set(signature, blockhash);
}

function scopeOf(service: ServiceContext): Scope {
  const scope = scopes.getStore();
  if (scope === undefined || scope.service !== service) {
    throw new Error("the fee reserve signs only inside withReserveSpend (whose spend is it?)");
  }
  return scope;
}

async function reserveInScope(scope: Scope, charge: ReserveCharge): Promise<void> {
  if (scope.accountId === null || (charge.loss <= 0n && charge.advance <= 0n)) return;
  scope.reservations.push(await reserveLamports(scope.service, scope.accountId, charge));
}

/** The reserve's key behind a signer that reserves each transaction's maximum before signing it. */
function meteredPayer(service: ServiceContext): Scope["payer"] {
  const inner = service.feePayer;
  return {
    address: inner.address,
    async signTransactions(
      transactions: Parameters<KeyPairSigner["signTransactions"]>[0],
    ): Promise<readonly SignatureDictionary[]> {
      const scope = scopeOf(service);
      scope.rent ??= rentExemptMinimumOf(service.chain);
      const rentExemptMinimum = await scope.rent;
      const blockhashes: string[] = [];
      for (const transaction of transactions) {
        const bound = spendBoundOf(transaction.messageBytes, {
          feePayer: inner.address,
          programId: service.chain.programId,
          rentExemptMinimum,
        });
        blockhashes.push(bound.blockhash);
        const needed = {
          loss: bound.feeLamports + bound.depositLamports - bound.advanceLamports,
          advance: bound.advanceLamports,
        };
        // Each part is drawn from what was prepaid for it; what is missing is reserved now.
        const shortfall = {
          loss: positive(needed.loss - scope.prepaid.loss),
          advance: positive(needed.advance - scope.prepaid.advance),
        };
        await reserveInScope(scope, shortfall);
        scope.prepaid = {
          loss: positive(scope.prepaid.loss - needed.loss),
          advance: positive(scope.prepaid.advance - needed.advance),
        };
      }
      const signed = await inner.signTransactions(transactions);
      signed.forEach((dictionary, index) => {
        const signature = dictionary[inner.address];
        const blockhash = blockhashes[index];
        if (signature === undefined || blockhash === undefined) return;
        const id = BASE58.decode(signature);
        scope.signatures.push(id);
        scope.blockhashes.set(id, blockhash);
      });
      return signed;
    },
  };
}

/**
 * Ends the scope's spend: reservations with nothing signed are released at once; otherwise the spend
 * is recorded before the request answers and settled once its transactions are readable.
 */
async function settle(scope: Scope): Promise<void> {
  const { accountId, reservations } = scope;
  if (accountId === null || reservations.length === 0) return;
  const [first, ...others] = [...new Set(scope.signatures)];
  if (first === undefined) {
    for (const reservation of reservations) await settleReservation(scope.service, reservation, NO_CHARGE);
    return;
  }
  const spend = {
    accountId,
    reservations,
    signatures: [first, ...others],
    blockhashes: scope.blockhashes,
  } as const;
  if (await recordPendingSpend(scope.service, spend)) reconcileLater(scope.service, spend);
  else for (const reservation of reservations) await settleReservation(scope.service, reservation, NO_CHARGE);
}

function positive(lamports: bigint): bigint {
  return lamports > 0n ? lamports : 0n;
}

/** What a landed transaction cost the reserve (negative when more rent came back than it paid); 0 if it never landed. */
export async function reserveCostOf(service: ServiceContext, signature: string): Promise<bigint> {
  // Only a transaction known to the cluster can have cost anything; it is readable once confirmed.
  const landed = await confirmedTransaction(service.chain, signature);
  return landed === null ? 0n : reserveCostIn(service, landed);
}
