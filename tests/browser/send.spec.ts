/**
 * The send page refuses a transfer the API refuses, and changes nothing: a transfer to a handle no
 * account has. It also shows the network recorder at work: the amount typed on this page is in the
 * request body by design (the service builds the proofs), and the recorder must have seen it there,
 * so a plaintext anywhere else would not have gone unnoticed.
 */
import { v1 } from "./support/admin-client";
import { openNav, signIn } from "./support/dashboard-steps";
import { expect, test } from "./support/fixtures";

const TYPED_AMOUNT = "3.141593";

test("Given the send page, When a transfer to an unknown handle is sent, Then it is refused with the API's reason and nothing is made", async ({
  page,
  world,
  authenticator,
  recorder,
}) => {
  recorder.expectInRequestBody(TYPED_AMOUNT);
  const newest = async () =>
    (await v1(world.baseUrl, world.owner.apiKey, "GET", "/v1/transfers?limit=1")).body.transfers[0]
      ?.transfer_id;
  const before = await newest();
  await signIn(page, authenticator);
  await openNav(page, "Send");

  await page.getByRole("textbox", { name: "To" }).fill("@nobody-by-that-name");
  await page.getByRole("textbox", { name: "Amount" }).fill(TYPED_AMOUNT);
  await page.getByRole("button", { name: "Send" }).click();

  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Transfer tr_" })).toHaveCount(0);
  expect(await newest()).toBe(before);
  // the recorder saw the typed amount where it was meant to go, and only there
  const seen = await recorder.excused();
  expect(seen.map((leak) => leak.url)).toEqual([`${world.baseUrl}/v1/transfers`]);
});
