import { expect, test, type Page } from '@playwright/test';
import { getAddress, hexToString, isHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { projectContextOptions, signInNewPlayer } from '../fixtures/auth';

/**
 * Connecting a wallet with proof (issue 29, deliverable 4): the settings page asks the browser's
 * wallet (EIP-1193 `window.ethereum`) for its account and a personal_sign (EIP-191) of the
 * server's challenge, and the server binds the address only with that signature. The wallet here
 * is a stand-in injected before the page loads; it signs in the test with viem, as a real wallet
 * would with its key.
 */

/** The wallet_connected milestone's points (lib/points/milestones.ts). */
const WALLET_BONUS_POINTS = 25;

type TSignRequest = { message: string; address: string };

/**
 * Injects an EIP-1193 provider into every page `page` loads: eth_requestAccounts answers `address`
 * (lower case, as wallets answer), personal_sign answers the account's signature of the message the
 * page sent (hex-encoded UTF-8, lib/client/ethereum.ts), made in the test; anything else is refused
 * with 4200 (unsupported method). Answers the sign requests seen, in order.
 */
const injectWallet = async (page: Page, privateKey: Hex) => {
  const account = privateKeyToAccount(privateKey);
  const signRequests: TSignRequest[] = [];
  await page.exposeFunction('__e2eWalletSign', async (messageParam: string, address: string) => {
    const message = isHex(messageParam) ? hexToString(messageParam) : messageParam;
    signRequests.push({ message, address });
    return account.signMessage({ message });
  });
  await page.addInitScript((walletAddress: string) => {
    const sign = (window as unknown as { __e2eWalletSign: (message: string, address: string) => Promise<string> }).__e2eWalletSign;
    (window as unknown as { ethereum: unknown }).ethereum = {
      isE2eWallet: true,
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [walletAddress];
        if (method === 'personal_sign') return sign(String(params?.[0]), String(params?.[1]));
        throw Object.assign(new Error(`The e2e wallet does not support ${method}`), { code: 4200 });
      },
    };
  }, account.address.toLowerCase());
  return { address: getAddress(account.address), signRequests };
};

const walletCard = (page: Page) => page.getByRole('region', { name: 'Wallet', exact: true });

test('a player connects a wallet on the settings page by signing the server’s challenge, and it is bound to their account', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const player = await signInNewPlayer(browser, `e2e|wl${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = player;
  const asPlayer = { Authorization: `Bearer ${player.token}` };
  // A key of its own per run: an address binds to one account only.
  const wallet = await injectWallet(page, generatePrivateKey());
  const before = (await (await page.request.get('/api/users/me', { headers: asPlayer })).json()).user;
  expect(before.walletAddress).toBeNull();
  const pointsBefore = (await (await page.request.get('/api/waitlist/position', { headers: asPlayer })).json()).position.points as number;

  await page.goto('/settings');
  const card = walletCard(page);
  await expect(card).toBeVisible();
  await expect(card.getByText('Not connected', { exact: true })).toBeVisible();
  await expect(card.getByText(/No wallet extension was found/)).toHaveCount(0);
  const connect = card.getByRole('button', { name: 'Connect wallet' });
  await expect(connect).toBeEnabled();
  await connect.click();

  // Connected: the address (checksummed), the bonus, and no button any more.
  await expect(card.getByText(`Connected ${wallet.address}. You earned ${WALLET_BONUS_POINTS} points.`)).toBeVisible();
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  await expect(card.getByText(wallet.address, { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: /Connect wallet|Try again/ })).toHaveCount(0);

  // The wallet was asked once, for the account it shared, to sign the server's challenge for this account.
  expect(wallet.signRequests).toHaveLength(1);
  expect(getAddress(wallet.signRequests[0]!.address)).toBe(wallet.address);
  expect(wallet.signRequests[0]!.message).toContain(`Account: ${before.id}`);
  expect(wallet.signRequests[0]!.message).toContain(`Wallet: ${wallet.address}`);

  // The server bound it and paid the bonus once.
  const after = (await (await page.request.get('/api/users/me', { headers: asPlayer })).json()).user;
  expect(after.walletAddress).toBe(wallet.address);
  expect(after.reputationPoints).toBe(before.reputationPoints + WALLET_BONUS_POINTS);

  // It stays connected after a reload, and the points page counts the bonus.
  await page.reload();
  await expect(walletCard(page).getByText(wallet.address, { exact: true })).toBeVisible();
  await page.goto('/points');
  const pointsStat = page.getByTestId('waitlist-stats').locator('div').filter({ has: page.getByRole('term').filter({ hasText: /^Points$/ }) });
  await expect(pointsStat.getByRole('definition')).toHaveText((pointsBefore + WALLET_BONUS_POINTS).toLocaleString('en-US'));
  await expect(page.getByRole('region', { name: 'Wallet bonus' }).getByText(wallet.address, { exact: true })).toBeVisible();

  await page.context().close();
});

test('without a wallet in the browser the settings page says so, and Connect is off', async ({ browser }, testInfo) => {
  const unique = `${testInfo.project.name.slice(0, 3)}${Date.now().toString(36).slice(-6)}`;
  const player = await signInNewPlayer(browser, `e2e|wn${unique}`, projectContextOptions(testInfo.project.use));
  const { page } = player;

  await page.goto('/settings');
  const card = walletCard(page);
  await expect(card.getByText('Not connected', { exact: true })).toBeVisible();
  await expect(card.getByText('No wallet extension was found in this browser. Install one (such as MetaMask or Rabby), then reload this page to connect.')).toBeVisible();
  const connect = card.getByRole('button', { name: 'Connect wallet' });
  await expect(connect).toBeDisabled();
  await expect(connect).toHaveAccessibleDescription(/No wallet extension was found in this browser/);

  const me = (await (await page.request.get('/api/users/me')).json()).user;
  expect(me.walletAddress).toBeNull();

  await page.context().close();
});
