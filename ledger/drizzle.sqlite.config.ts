// drizzle-kit: writes SQLite migrations from the schema (`npm run db:generate --workspace @cpay/ledger`).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.sqlite.ts",
  out: "../migrations/sqlite",
});
