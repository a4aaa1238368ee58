/**
 * Fetching a resource that may ask to be paid (HTTP 402, x402). It can move money, so it is
 * destructive, and it is not idempotent: a second call fetches again and, behind a paywall, pays
 * again (each x402 payment buys one response).
 */
import { z } from "zod";
import { defineTool } from "./tool-definition";

/** A body the tool sends as given; large uploads are not what this tool is for. */
const MAX_REQUEST_BODY_CHARS = 65_536;

export const fetchPaidTool = defineTool(
  "fetch_paid",
  "Fetch a URL, paying its HTTP 402 price",
  { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  {
    url: z
      .string()
      .regex(/^https?:\/\/\S+$/, "must be an http:// or https:// URL")
      .max(2048)
      .describe("The resource to fetch: an http:// or https:// URL."),
    method: z.enum(["GET", "POST"]).default("GET").describe('The HTTP method: "GET" (default) or "POST".'),
    body: z
      .string()
      .max(MAX_REQUEST_BODY_CHARS)
      .optional()
      .describe("POST only: the request body, sent as given."),
    content_type: z
      .string()
      .max(200)
      .optional()
      .describe('POST only: the body\'s Content-Type (default "application/json").'),
  },
  [
    "Fetch a URL for this agent; if the server answers HTTP 402 (x402: it sells the response), pay its price from the agent's account and fetch it again with the payment.",
    "The payment is public USDG, made through the agent's spend policy on-chain: the same limits, allowed recipients, assets and active hours as pay. The server's facilitator pays the network fee.",
    "Answers the HTTP status, a few headers, the body (text, cut at 32 KiB) and, if it paid, the payment: its on-chain signature, amount, recipient and transfer id.",
    "A refusal (a spend-policy rule, the balance, a price above the owner's approval threshold, a 402 this agent cannot pay) is answered as an error naming the rule; nothing is paid then.",
    "The server may ask the human to confirm first; if they decline or do not answer, nothing is paid.",
    "Calling again fetches and pays again: do not repeat a call that paid.",
  ],
);
