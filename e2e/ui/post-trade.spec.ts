import { expect, test } from '@playwright/test';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

// Posts that trade: a post about a market carries a live card whose YES and NO open the trade
// panel on that side, and a $TICKER in a post links to the perp page.

test('a post’s market card buys YES in one tap, and its $TICKER links to the perp page', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const p = await signInNewPlayer(browser, `e2e|pt${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = p;
  const auth = { Authorization: `Bearer ${p.token}` };

  // A post about an active market, written by the new player through the API (as any client may).
  const markets = await (await page.request.get('/api/markets/predictions?status=active&limit=1')).json();
  const market = markets.markets[0] as { id: string; question: string };
  expect(market).toBeTruthy();
  const created = await page.request.post('/api/posts', {
    headers: auth,
    data: { content: `Thinking YES on this one, and long $HELX while I wait ${unique}`, relatedQuestion: market.id },
  });
  expect(created.status()).toBe(201);
  const postId = (await created.json()).post.id as string;
  const balanceOf = async () => Number((await (await page.request.get('/api/users/me', { headers: auth })).json()).user.virtualBalance);
  const balanceBefore = await balanceOf();

  await page.goto(`/posts/${postId}`);
  const card = page.getByTestId('post-market-card');
  await expect(card.getByRole('link', { name: market.question })).toBeVisible();
  await expect(card.getByTestId('post-author-position')).toHaveCount(0);

  // NO opens the panel on NO; closing leaves nothing bought.
  await card.getByRole('button', { name: /^Buy NO at/ }).click();
  const noSheet = page.getByRole('dialog', { name: 'Trade this market' });
  await expect(noSheet.getByRole('radio', { name: 'NO', exact: true })).toHaveAttribute('aria-checked', 'true');
  await noSheet.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(noSheet).toHaveCount(0);

  // YES: one tap opens the panel on YES, an amount and the panel's own confirm buy it.
  const yesButton = card.getByRole('button', { name: /^Buy YES at/ });
  const yesLabelBefore = await yesButton.getAttribute('aria-label');
  await yesButton.click();
  const sheet = page.getByRole('dialog', { name: 'Trade this market' });
  await expect(sheet.getByRole('radio', { name: 'YES', exact: true })).toHaveAttribute('aria-checked', 'true');
  await sheet.getByRole('textbox', { name: 'Amount', exact: true }).fill('25');
  await sheet.getByRole('button', { name: 'Buy YES', exact: true }).click();
  await expect(sheet.getByRole('status').filter({ hasText: /Bought [\d,.]+ YES shares/ })).toBeVisible();
  expect(await balanceOf()).toBeCloseTo(balanceBefore - 25, 6);
  await sheet.getByRole('button', { name: 'Close', exact: true }).click();

  // The card's price follows the market: the buy raised YES.
  await expect.poll(() => yesButton.getAttribute('aria-label')).not.toBe(yesLabelBefore);
  const cents = (label: string | null) => Number(/([\d.]+)¢/.exec(label ?? '')?.[1]);
  expect(cents(await yesButton.getAttribute('aria-label'))).toBeGreaterThan(cents(yesLabelBefore));

  // The author is the buyer: the card now shows their holding.
  await expect(card.getByTestId('post-author-position')).toHaveText(/holds [\d,.]+ YES at [\d.]+¢/);

  // $HELX is a link to its perp page.
  await page.getByRole('link', { name: '$HELX perpetual' }).click();
  await expect(page).toHaveURL(/\/perps\/HELX$/);
  await page.context().close();
});
