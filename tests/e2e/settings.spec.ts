import { startSimulator } from '../../src/simulator';
import { expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources, startJob } from './support/screens';

// A fresh machine: `scriptorium ui` started with neither the service's address nor a key.
test.use({ configured: false });

test('Settings: the service address is tested, the key saved, tested and removed, never shown', async ({
  app: page,
  sim,
}) => {
  await goTo(page, 'Settings');
  const form = page.getByRole('region', { name: 'Service and key' });
  await expect(form).toContainText('No key is set.');

  const address = page.getByRole('textbox', { name: 'Service address' });
  await address.fill('ftp://example.com');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByText('The service address "ftp://example.com" must start with https://'),
  ).toBeVisible();
  // Plain http only to this computer: elsewhere the key would cross the network unencrypted.
  await address.fill('http://example.invalid:8080');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByText(
      'The service address "http://example.invalid:8080" must start with https:// (http:// only for a service on this computer: localhost, 127.x.x.x or [::1]), so that the key never crosses the network unencrypted.',
    ),
  ).toBeVisible();

  await address.fill(sim.url);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('alert')).toHaveText('Address saved. No key is set. Nothing was sent.');

  const keyField = page.getByRole('textbox', { name: 'API key', exact: true });
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill('sk_not_the_right_one');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'Key saved. The service refused the key (HTTP 401): check it and save it again.',
  );
  await expect(form).toContainText('A key is set. The key is kept in memory until Scriptorium stops.');
  await expect(keyField).toHaveValue('');

  await keyField.fill(sim.key);
  await keyField.press('Enter');
  const port = new URL(sim.url).port;
  const connected = `Connected to 127.0.0.1:${port}: the service accepted the key.`;
  await expect(form.getByRole('status').filter({ hasText: 'Key saved.' })).toHaveText(
    `Key saved. ${connected}`,
  );
  // The refusal before is gone: one thing said, the current one.
  await expect(form.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(connected);
  // Nothing on the page holds the key.
  expect(await page.content()).not.toContain(sim.key);

  await page.getByRole('button', { name: 'Remove key' }).click();
  await expect(form.getByText('Key removed.')).toBeVisible();
  await expect(form).toContainText('No key is set.');
  await expect(page.getByRole('button', { name: 'Remove key' })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('alert')).toHaveText('No key is set. Nothing was sent.');

  // The address was saved: it is there after a reload.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Service address' })).toHaveValue(sim.url);
});

test('a key is kept for its address: a new address asks for it again, and a key that cannot be sent or is too short is refused', async ({
  app: page,
  sim,
}) => {
  await goTo(page, 'Settings');
  const form = page.getByRole('region', { name: 'Service and key' });
  const keyField = page.getByRole('textbox', { name: 'API key', exact: true });
  await keyField.fill(sim.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  // A key is kept for an address: the address is asked for first, under its field.
  await expect(
    form.getByText('Type the service’s address first, such as https://api.example.com.'),
  ).toBeVisible();

  const address = page.getByRole('textbox', { name: 'Service address' });
  await address.fill(sim.url);
  await keyField.fill(`sk_demo\u2013scriptorium`);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(
    form.getByText(
      'The API key holds a character that is not plain ASCII (U+2013) at character 8, which cannot be sent in a request: a key is made of letters, digits and punctuation only. Copy it again from your account page.',
    ),
  ).toBeVisible();
  await expect(form).toContainText('No key is set.');
  // Too short to be a key: a key of two letters would be part of the service's own data.
  await keyField.fill('kl');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(
    form.getByText(
      'The API key has 2 characters, too few to be a key (a key has at least 8). Copy it again from your account page.',
    ),
  ).toBeVisible();
  await expect(form).toContainText('No key is set.');
  expect(sim.admin.requests()).toEqual([]);

  await keyField.fill(sim.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(form.getByText(/^Address and key saved\. .*the service accepted the key\.$/)).toBeVisible();

  const elsewhere = 'http://127.0.0.2:9/';
  await address.fill(elsewhere);
  await page.getByRole('button', { name: 'Test connection' }).click();
  const again = `The key was saved for ${sim.url}, so it is not sent to ${elsewhere}.`;
  await expect(form.getByRole('alert')).toHaveText(`Address saved. ${again} Nothing was sent.`);
  await expect(form).toContainText(again);
  await expect(form).not.toContainText('A key is set.');
});

test('a job started before the key is set waits queued, says what to do, and runs once the key is saved', async ({
  app: page,
  sim,
}) => {
  await goTo(page, 'Settings');
  await page.getByRole('textbox', { name: 'Service address' }).fill(sim.url);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('button', { name: 'Test connection' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );

  const source = 'PLwaitingForItsKey_n15';
  await goTo(page, 'New job');
  await pasteSources(page, [source]);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const card = jobCard(page, source);
  await expect(card.getByText('Queued', { exact: true })).toBeVisible();
  await expect(card).toContainText(
    'It cannot start yet. No key is set. Enter it in Settings. Nothing was sent. It starts by itself once that is done.',
  );

  await goTo(page, 'Settings');
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(sim.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText(/^Key saved\. Connected to /)).toBeVisible();
  // No Resume: the key runs what waited for it.
  await goTo(page, 'Jobs');
  // Once its playlist is read, the job takes the playlist's title.
  const heading = page.getByRole('article').first().getByRole('heading', { level: 2 });
  await expect(heading).not.toHaveText(source);
  await expectCompleted(page, (await heading.textContent()) ?? '', 15);
});

test('job defaults saved in Settings are what New job starts with, also after a reload', async ({
  app: page,
}) => {
  await goTo(page, 'Settings');
  const defaults = page.getByRole('region', { name: 'Defaults for new jobs' });
  await defaults.getByRole('textbox', { name: 'Languages' }).fill('es,en,orig');
  await defaults.getByRole('checkbox', { name: 'VTT' }).uncheck();
  await defaults.getByRole('checkbox', { name: 'Metadata' }).uncheck();
  await defaults.getByRole('spinbutton', { name: 'Concurrency' }).fill('2');
  await defaults.getByRole('spinbutton', { name: 'Budget (credits)' }).fill('500');
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await expect(page.getByText('Defaults saved: new jobs start with them.')).toBeVisible();

  for (const reload of [false, true]) {
    if (reload) await page.reload();
    await goTo(page, 'New job');
    await expect(page.getByRole('textbox', { name: 'Languages' })).toHaveValue('es,en,orig');
    await expect(page.getByRole('checkbox', { name: 'VTT' })).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'TXT' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Metadata' })).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Timestamps' })).toBeChecked();
    await expect(page.getByRole('spinbutton', { name: 'Concurrency' })).toHaveValue('2');
    await expect(page.getByRole('spinbutton', { name: 'Budget (credits)' })).toHaveValue('500');
    await expect(page.getByRole('spinbutton', { name: 'Max videos per source' })).toHaveValue('');
  }
});

test.describe('started with an address', () => {
  test.use({ configured: true });

  test('one rule for the address: Settings says which is in use and where it comes from, and a test tests that one', async ({
    app: page,
    sim,
  }) => {
    const replacement = await startSimulator({ credits: 1000 });
    try {
      await goTo(page, 'Settings');
      const inUse = page.locator('.address-in-use');
      await expect(inUse).toHaveText(
        `In use: ${sim.url}, given when Scriptorium started (--base-url or TRANSCRIPT_API_BASE_URL).`,
      );

      // The address typed replaces the one given at start: it is the one tested, and the one used.
      await page.getByRole('textbox', { name: 'Service address' }).fill(replacement.url);
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(inUse).toHaveText(`In use: ${replacement.url}, saved here.`);
      await expect(page.getByRole('alert')).toHaveText(
        `Address saved. The key from TRANSCRIPT_API_KEY is for ${sim.url}, the address Scriptorium started with, so it is not sent to ${replacement.url}. Nothing was sent.`,
      );
      await page.getByRole('textbox', { name: 'API key', exact: true }).fill(replacement.key);
      await page.getByRole('button', { name: 'Save key' }).click();
      const port = new URL(replacement.url).port;
      await expect(
        page.getByText(`Key saved. Connected to 127.0.0.1:${port}: the service accepted the key.`),
      ).toBeVisible();

      const title = await startJob(page, ['PLreplacedService_n4']);
      await expectCompleted(page, title, 4);
      expect(replacement.admin.ledger().length).toBeGreaterThan(0);
      expect(sim.admin.requests()).toEqual([]);

      // Emptied, the address given at start is in use again.
      await goTo(page, 'Settings');
      await page.getByRole('textbox', { name: 'Service address' }).fill('');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(inUse).toHaveText(
        `In use: ${sim.url}, given when Scriptorium started (--base-url or TRANSCRIPT_API_BASE_URL).`,
      );
    } finally {
      await replacement.close();
    }
  });
});
