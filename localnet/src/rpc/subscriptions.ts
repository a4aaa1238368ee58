/**
 * Solana PubSub subscriptions over the cluster's events, independent of the transport:
 * logsSubscribe, signatureSubscribe, slotSubscribe, accountSubscribe and their *Unsubscribe.
 *
 * Semantics follow agave: ids are numbers unique to the server; notifications fire at the
 * subscription's commitment (default `finalized`); a signature subscription fires once and is then
 * gone (and fires at the next slot if the transaction had already reached the commitment, so no
 * client misses a landing that happened before it subscribed); logs `mentions` takes one address and
 * matches any account key of the transaction, loaded ones included. Account notifications fire when
 * a transaction that references the account reaches the commitment and the account's rendering
 * changed (state written outside transactions, e.g. test setup through LiteSVM, is not seen).
 */
import type { AccountRecord, ClusterPort, Commitment, TransactionRecord } from "../cluster/cluster-port";
import {
  type AccountEncoding,
  type DataSlice,
  encodeAccount,
  readAccountEncoding,
  readDataSlice,
} from "./account-encoding";
import { createCommitmentFeed } from "./commitment-feed";
import { stringifyJson } from "./json-bigint";
import type { Handler } from "./json-rpc-dispatch";
import { invalidParams } from "./json-rpc-errors";
import {
  commitmentRank,
  optionalBoolean,
  optionalConfig,
  positional,
  readCommitment,
  requireAddress,
  requireSignature,
  requireU64,
} from "./params";

const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111";

/** One client connection, as the hub sees it: somewhere to send notification text. */
export interface SubscriberConnection {
  send(text: string): void;
}

interface AccountSubscription {
  readonly kind: "account";
  readonly commitment: Commitment;
  readonly address: string;
  readonly encoding: AccountEncoding;
  readonly slice: DataSlice | null;
  /** The last rendering sent (or seen at subscribe time), so only changes are notified. */
  last: string;
}

interface SignatureSubscription {
  readonly kind: "signature";
  readonly commitment: Commitment;
  readonly signature: string;
  /** `enableReceivedNotification`: also say "receivedSignature" when it lands (processed). */
  readonly received: boolean;
}

type Subscription =
  | { readonly kind: "logs"; readonly commitment: Commitment; readonly mentions: string | null }
  | SignatureSubscription
  | { readonly kind: "slot" }
  | AccountSubscription;

interface Entry {
  readonly id: number;
  readonly connection: SubscriberConnection;
  readonly subscription: Subscription;
}

export interface SubscriptionHub {
  /** The PubSub methods, bound to `connection` (subscriptions belong to the connection). */
  methodsFor(connection: SubscriberConnection): (method: string) => Handler | undefined;
  /** Drops every subscription of a closed connection. */
  disconnect(connection: SubscriberConnection): void;
  close(): void;
}

const NOTIFICATION_METHOD: Record<Subscription["kind"], string> = {
  logs: "logsNotification",
  signature: "signatureNotification",
  slot: "slotNotification",
  account: "accountNotification",
};

/** What a deleted account looks like in an accountNotification (agave renders a default account). */
function emptyAccount(address: string): AccountRecord {
  return {
    address,
    lamports: 0n,
    owner: SYSTEM_PROGRAM_ID,
    executable: false,
    rentEpoch: 0n,
    data: new Uint8Array(),
  };
}

/** Whether `address` is one of the transaction's account keys, static or loaded from a table. */
function references(record: TransactionRecord, address: string): boolean {
  const { writable, readonly } = record.loadedAddresses;
  return record.accountKeys.includes(address) || writable.includes(address) || readonly.includes(address);
}

export function createSubscriptionHub(
  cluster: ClusterPort,
  onError: (error: unknown) => void = () => {},
): SubscriptionHub {
  const entries = new Map<number, Entry>();
  let nextId = 0;
  const feed = createCommitmentFeed(cluster);

  const notify = (entry: Entry, result: unknown) => {
    const method = NOTIFICATION_METHOD[entry.subscription.kind];
    entry.connection.send(
      stringifyJson({ jsonrpc: "2.0", method, params: { result, subscription: entry.id } }),
    );
  };

  /** The account as the subscription renders it, plus its text to detect changes. */
  const renderAccount = (sub: AccountSubscription): { value: unknown; text: string } => {
    const account = cluster.getAccount(sub.address) ?? emptyAccount(sub.address);
    const value = encodeAccount(cluster, account, sub.encoding, sub.slice);
    return { value, text: stringifyJson(value) };
  };

  const deliver = (entry: Entry, record: TransactionRecord, commitment: Commitment) => {
    const sub = entry.subscription;
    const context = { slot: record.slot };
    if (sub.kind === "logs" && sub.commitment === commitment) {
      if (sub.mentions === null || references(record, sub.mentions)) {
        notify(entry, {
          context,
          value: { signature: record.signature, err: record.err, logs: record.logs },
        });
      }
    } else if (sub.kind === "signature" && sub.signature === record.signature) {
      if (sub.commitment === commitment) {
        entries.delete(entry.id);
        notify(entry, { context, value: { err: record.err } });
      } else if (sub.received && commitment === "processed") {
        notify(entry, { context, value: "receivedSignature" });
      }
    } else if (sub.kind === "account" && sub.commitment === commitment && references(record, sub.address)) {
      const { value, text } = renderAccount(sub);
      if (text !== sub.last) {
        sub.last = text;
        notify(entry, { context, value });
      }
    }
  };

  /**
   * A signature that reached the commitment before it was subscribed to is notified at the next slot,
   * as agave does from its status cache. Not at subscribe time: the notification would then arrive
   * before a client (kit included) has attached a listener to the id it was just given.
   */
  const deliverIfAlreadyThere = (entry: Entry, sub: SignatureSubscription) => {
    const status = cluster.getSignatureStatus(sub.signature);
    if (!status || commitmentRank(status.confirmationStatus) < commitmentRank(sub.commitment)) return;
    entries.delete(entry.id);
    notify(entry, { context: { slot: status.slot }, value: { err: status.err } });
  };

  // One failing subscription (an account grown past base58's limit, a dead socket) must not starve
  // the others, nor throw into the cluster's event emitter.
  const forEachEntry = (visit: (entry: Entry) => void) => {
    for (const entry of [...entries.values()]) {
      try {
        visit(entry);
      } catch (error) {
        onError(error);
      }
    }
  };

  const offFeed = feed.on((record, commitment) =>
    forEachEntry((entry) => deliver(entry, record, commitment)),
  );
  const offSlot = cluster.on("slot", ({ slot, finalized }) =>
    forEachEntry((entry) => {
      const sub = entry.subscription;
      if (sub.kind === "slot") notify(entry, { parent: slot > 0n ? slot - 1n : 0n, root: finalized, slot });
      else if (sub.kind === "signature") deliverIfAlreadyThere(entry, sub);
    }),
  );

  const add = (connection: SubscriberConnection, subscription: Subscription): number => {
    const id = nextId++;
    entries.set(id, { id, connection, subscription });
    return id;
  };

  const unsubscribe =
    (connection: SubscriberConnection, kind: Subscription["kind"]): Handler =>
    (params) => {
      const [id] = positional(params, 1, 1);
      const key = Number(requireU64(id, "param 0 (subscription id)"));
      const entry = entries.get(key);
      if (!entry || entry.connection !== connection || entry.subscription.kind !== kind) {
        throw invalidParams("Invalid subscription id.");
      }
      entries.delete(key);
      return true;
    };

  const methodsFor = (connection: SubscriberConnection) => {
    const methods: Record<string, Handler> = {
      logsSubscribe(params) {
        const [filter, rawConfig] = positional(params, 1, 2);
        const commitment = readCommitment(optionalConfig(rawConfig, "param 1 (config)"));
        if (filter === "all" || filter === "allWithVotes") {
          return add(connection, { kind: "logs", commitment, mentions: null });
        }
        const mentions = optionalConfig(filter, "param 0 (filter)").mentions;
        if (!Array.isArray(mentions) || mentions.length !== 1) {
          throw invalidParams(
            'Invalid Request: Only 1 address supported (param 0 must be "all", "allWithVotes" or {"mentions": [<address>]})',
          );
        }
        const address = requireAddress(mentions[0], "param 0 (mentions[0])");
        return add(connection, { kind: "logs", commitment, mentions: address });
      },
      signatureSubscribe(params) {
        const [signature, rawConfig] = positional(params, 1, 2);
        const key = requireSignature(signature, "param 0 (signature)");
        const config = optionalConfig(rawConfig, "param 1 (config)");
        const commitment = readCommitment(config);
        const received = optionalBoolean(config, "enableReceivedNotification") ?? false;
        return add(connection, { kind: "signature", commitment, signature: key, received });
      },
      slotSubscribe(params) {
        positional(params, 0, 0);
        return add(connection, { kind: "slot" });
      },
      accountSubscribe(params) {
        const [address, rawConfig] = positional(params, 1, 2);
        const key = requireAddress(address, "param 0 (address)");
        const config = optionalConfig(rawConfig, "param 1 (config)");
        const commitment = readCommitment(config);
        const encoding = readAccountEncoding(config, "binary");
        const slice = readDataSlice(config, encoding);
        const subscription: AccountSubscription = {
          kind: "account",
          commitment,
          address: key,
          encoding,
          slice,
          last: "",
        };
        // Rendering now also refuses, at subscribe time, an encoding the account cannot be sent in.
        subscription.last = renderAccount(subscription).text;
        return add(connection, subscription);
      },
      logsUnsubscribe: unsubscribe(connection, "logs"),
      signatureUnsubscribe: unsubscribe(connection, "signature"),
      slotUnsubscribe: unsubscribe(connection, "slot"),
      accountUnsubscribe: unsubscribe(connection, "account"),
    };
    return (method: string) => (Object.hasOwn(methods, method) ? methods[method] : undefined);
  };

  return {
    methodsFor,
    disconnect(connection) {
      for (const [id, entry] of entries) if (entry.connection === connection) entries.delete(id);
    },
    close() {
      offFeed();
      offSlot();
      feed.close();
      entries.clear();
    },
  };
}
