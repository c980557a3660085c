import { tickNextMinute } from '../fixtures/tick';
import { expect, test, type Page } from '@playwright/test';
import { mintToken, projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/** No sideways scrolling: the page fits the viewport (the phone project is 390 px wide). */
const expectNoHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

test('a referred player onboards through the wizard and is registered on chain; the referrer sees them and earns the first-referral milestone', async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const isPhone = testInfo.project.name === 'phone';
  const options = projectContextOptions(testInfo.project.use);

  // The referrer opens Referrals from the navigation (the phone keeps it in the menu) and reads the link.
  const referrer = await signInNewPlayer(browser, `e2e|rf${unique}`, options);
  if (isPhone) await referrer.page.getByRole('button', { name: 'Open menu', exact: true }).click();
  await referrer.page.getByRole('navigation', { name: 'Main' }).filter({ visible: true }).getByRole('link', { name: 'Referrals', exact: true }).click();
  await expect(referrer.page).toHaveURL(/\/referrals$/);
  const linkField = referrer.page.getByRole('textbox', { name: 'Your referral link', exact: true });
  await expect(linkField).toHaveValue(/\?ref=[A-Za-z0-9]+$/);
  const link = new URL(await linkField.inputValue());
  const code = link.searchParams.get('ref')!;
  await expect(referrer.page.getByTestId('referral-count')).toHaveText('0');
  await expect(referrer.page.getByRole('heading', { name: 'No referrals yet' })).toBeVisible();
  await expectNoHorizontalScroll(referrer.page);

  // The new player follows the link (it leaves the code in a cookie), then signs in.
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${link.pathname}${link.search}`);
  const token = await mintToken(`e2e|nw${unique}`, { email: `nw${unique}@example.test` });
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Access token', exact: true }).fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();

  // The wizard, with the referral code filled in from the link.
  await expect(page).toHaveURL(/\/onboarding$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('list', { name: 'Onboarding steps' }).locator('[aria-current="step"]')).toContainText('Your profile');
  await expect(main.getByRole('textbox', { name: 'Referral code', exact: true })).toHaveValue(new RegExp(`^${code}$`, 'i'));
  await expect(main.getByText('Filled in from the invite link you followed.')).toBeVisible();

  const username = `nw_${unique}`;
  const usernameField = main.getByRole('textbox', { name: 'Username', exact: true });
  await usernameField.fill(username);
  await expect(main.getByText('Available.')).toBeVisible();
  // Keyboard: the next field is one Tab away.
  await usernameField.focus();
  await page.keyboard.press('Tab');
  const displayName = main.getByRole('textbox', { name: 'Display name', exact: true });
  await expect(displayName).toBeFocused();
  await page.keyboard.type(`Newcomer ${unique}`);
  await expectNoHorizontalScroll(page);
  await main.getByRole('button', { name: 'Continue', exact: true }).click();

  // Step 2: the on-chain registration is under way, and the milestones just earned are listed.
  await expect(main.getByRole('list', { name: 'Onboarding steps' }).locator('[aria-current="step"]')).toContainText('On-chain identity');
  await expect(main.getByRole('heading', { name: /^You earned \d+ points$/ })).toBeVisible();
  await expect(main.getByRole('list', { name: 'Points earned' })).toContainText('Complete your profile');
  await expect(main.getByRole('heading', { name: 'Registering your identity' })).toBeVisible();
  await expect(main.getByText(/^Identity token #\d+$/)).toBeVisible();
  await expect(page.getByTestId('onchain-status')).toHaveText('Registering');

  // The scheduler's tick confirms the registration on the (simulated) registry; the wizard polls and shows it.
  await expect(async () => {
    const tick = await tickNextMinute(page.request);
    expect(tick.status()).toBe(200);
    await expect(page.getByTestId('onchain-status')).toHaveText('Registered', { timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  await expect(main.getByRole('heading', { name: /registered on chain/ })).toBeVisible();
  await expect(main.getByRole('link', { name: 'See your points' })).toHaveAttribute('href', '/points');

  // The referrer sees the new player, and the first-referral milestone is paid.
  await referrer.page.reload();
  const referred = referrer.page.getByRole('list', { name: 'Players you referred' });
  await expect(referred.getByRole('listitem')).toHaveCount(1);
  await expect(referred).toContainText(`Newcomer ${unique}`);
  await expect(referred).toContainText(`@${username}`);
  await expect(referrer.page.getByTestId('referral-count')).toHaveText('1');

  await referrer.page.goto('/points');
  const milestone = referrer.page.getByTestId('milestone-first_referral');
  await expect(milestone).toContainText('Refer your first player');
  await expect(milestone).toContainText('Done');
  await expect(milestone).toContainText('100 points');
  await expect(referrer.page.getByTestId('points-balance')).toHaveText(/^[\d,]+$/);
  const balance = Number((await referrer.page.getByTestId('points-balance').textContent())!.replace(/,/g, ''));
  expect(balance).toBeGreaterThanOrEqual(100);
  await expect(referrer.page.getByText('Milestone: Refer your first player').filter({ visible: true })).toHaveCount(1);
  await expect(referrer.page.getByTestId('waitlist-stats')).toContainText('Referrals');
  await expectNoHorizontalScroll(referrer.page);

  await context.close();
  await referrer.page.context().close();
});
