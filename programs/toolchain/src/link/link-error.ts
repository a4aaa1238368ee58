/**
 * A program the linker refuses to produce (writable data, unknown syscall, unsupported
 * relocation...). Distinct from internal bugs so the CLI can print it without a stack trace.
 */
export class LinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LinkError";
  }
}
