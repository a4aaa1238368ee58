/** A deploy refused or failed for a reason the operator can act on; the message says which. */
export class DeployError extends Error {
  override readonly name = "DeployError";
}
