/**
 * A tool as both servers declare it: its name, the title and description a model reads, its input
 * schema (a strict zod object: an unknown field is refused rather than silently dropped, and every
 * field carries its description into the JSON Schema that `tools/list` shows) and its annotations
 * (`readOnlyHint` on reads; `destructiveHint` where money moves or a policy changes;
 * `idempotentHint` only where repeating the call with the same arguments changes nothing more).
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Input;
  readonly annotations: ToolAnnotations;
}

/** What a read-only tool declares: it changes nothing, so repeating it is harmless. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * A definition from its parts: the input as the fields of a strict object (each field described in
 * fields.ts or beside it), the description as its sentences, one a line in the source and joined
 * with spaces for the model.
 */
export function defineTool<Fields extends z.core.$ZodLooseShape>(
  name: string,
  title: string,
  annotations: ToolAnnotations,
  fields: Fields,
  sentences: readonly string[],
) {
  return {
    name,
    title,
    description: sentences.join(" "),
    inputSchema: z.strictObject(fields),
    annotations,
  } satisfies ToolDefinition;
}

/** A tool that only reads (READ_ONLY). */
export function readOnlyTool<Fields extends z.core.$ZodLooseShape>(
  name: string,
  title: string,
  fields: Fields,
  sentences: readonly string[],
) {
  return defineTool(name, title, READ_ONLY, fields, sentences);
}
