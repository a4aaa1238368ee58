// drizzle-kit: writes PostgreSQL migrations from the schema (`npm run db:generate --workspace @cpay/ledger`).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.pg.ts",
  out: "../migrations/postgres",
});
