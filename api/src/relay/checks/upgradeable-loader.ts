/**
 * BPF Upgradeable Loader, for one purpose only: the scratch buffer the SDK stages a Token-2022 range
 * proof in (sdk/src/confidential/proof-staging.ts). Verifying that proof into a context the agent's
 * PDA owns takes 1,239 bytes inline, over the 1,232-byte packet limit, and a loader buffer is the
 * one account type a default cluster lets a key fill with arbitrary bytes. So: InitializeBuffer and
 * Write with the agent's signer as the buffer's authority, and Close with the rent back to the fee
 * payer. Deploy, Upgrade, SetAuthority and the rest are refused; the fee payer never appears except
 * as Close's recipient.
 */
import { ALLOWED, feePayerOutside, type InstructionCheck, refuse } from "./verdict";

const INITIALIZE_BUFFER = 0;
const WRITE = 1;
const CLOSE = 5;
/** Each allowed instruction's accounts, and where the buffer's authority sits. */
const LAYOUTS: Readonly<Record<number, { readonly name: string; readonly accounts: readonly string[] }>> = {
  [INITIALIZE_BUFFER]: { name: "InitializeBuffer", accounts: ["buffer", "authority"] },
  [WRITE]: { name: "Write", accounts: ["buffer", "authority"] },
  [CLOSE]: { name: "Close", accounts: ["buffer", "recipient", "authority"] },
};

export const checkUpgradeableLoader: InstructionCheck = (instruction, ctx) => {
  const at = `instruction ${instruction.index}`;
  const data = instruction.data;
  const tag = data.length >= 4 ? new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) : -1;
  const layout = LAYOUTS[tag];
  if (layout === undefined) {
    return refuse(
      "instruction_not_allowed",
      `${at} (BPF Upgradeable Loader, tag ${tag}) is not relayed; only a proof's staging buffer (InitializeBuffer, Write, Close) is`,
    );
  }
  const label = `${at} (BPF Upgradeable Loader ${layout.name})`;
  if (instruction.accounts.length !== layout.accounts.length) {
    return refuse("instruction_not_allowed", `${label} takes ${layout.accounts.length} accounts`);
  }
  const misuse = feePayerOutside(
    instruction,
    label,
    ctx,
    (position) => layout.accounts[position] === "recipient",
    (position) => layout.accounts[position],
  );
  if (misuse) return misuse;
  const authority = instruction.accounts[layout.accounts.indexOf("authority")];
  if (authority !== ctx.agent.signer) {
    return refuse(
      "not_this_agent",
      `${label} names ${authority} as the buffer's authority; a relayed buffer is the agent signer's (${ctx.agent.signer})`,
    );
  }
  if (tag === CLOSE && instruction.accounts[1] !== ctx.feePayer) {
    return refuse(
      "fee_payer_misused",
      `${label} sends the buffer's rent (the reserve paid it) to ${instruction.accounts[1]}; it must come back to the fee payer`,
    );
  }
  return ALLOWED;
};
