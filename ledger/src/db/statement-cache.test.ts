import SqliteDatabase from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cachePreparedStatements } from "./statement-cache";

describe("cachePreparedStatements", () => {
  it("hands back the compiled statement for the same SQL, another for other SQL", () => {
    const connection = new SqliteDatabase(":memory:");
    cachePreparedStatements(connection);
    const first = connection.prepare("SELECT ? AS value");
    expect(connection.prepare("SELECT ? AS value")).toBe(first);
    expect(connection.prepare("SELECT ? + 1 AS value")).not.toBe(first);
    connection.close();
  });

  it("resets raw mode, so a reuse answers as a freshly prepared statement does", () => {
    const connection = new SqliteDatabase(":memory:");
    cachePreparedStatements(connection);
    // drizzle turns raw mode on for queries it maps itself and never turns it off.
    expect(connection.prepare("SELECT ? AS value").raw().get(7)).toEqual([7]);
    expect(connection.prepare("SELECT ? AS value").get(8)).toEqual({ value: 8 });
    connection.close();
  });

  it("reuses statements that return no data (raw mode does not apply to them)", () => {
    const connection = new SqliteDatabase(":memory:");
    cachePreparedStatements(connection);
    connection.exec("CREATE TABLE t (v INTEGER)");
    connection.prepare("INSERT INTO t (v) VALUES (?)").run(1);
    connection.prepare("INSERT INTO t (v) VALUES (?)").run(2);
    expect(connection.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
    connection.close();
  });
});
