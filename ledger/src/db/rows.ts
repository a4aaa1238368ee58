/** Row types of the tables, as the services read them. */
import type { Tables } from "./schema";

export type AccountRow = Tables["accounts"]["$inferSelect"];
export type ApiKeyRow = Tables["apiKeys"]["$inferSelect"];
export type TransferRow = Tables["transfers"]["$inferSelect"];
export type HoldRow = Tables["holds"]["$inferSelect"];
export type EventRow = Tables["events"]["$inferSelect"];
export type EnrollmentTokenRow = Tables["enrollmentTokens"]["$inferSelect"];
export type PasskeyRow = Tables["passkeys"]["$inferSelect"];
export type SessionRow = Tables["sessions"]["$inferSelect"];
export type WebauthnChallengeRow = Tables["webauthnChallenges"]["$inferSelect"];
