import { expect, test } from './support/fixtures';
import { expectCompleted, goTo, jobCard, pasteSources } from './support/screens';

// A fresh machine: `scriptorium ui` started with neither the service's address nor a key.
test.use({ configured: false });

test('Settings: the service address is tested, the key saved, tested and removed, never shown', async ({
  app: page,
  sim,
}) => {
  await goTo(page, 'Settings');
  const keySection = page.getByRole('region', { name: 'API key' });
  await expect(keySection).toContainText('No key is set: enter yours in Settings.');

  const address = page.getByRole('textbox', { name: 'Service address' });
  await address.fill('ftp://example.com');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('The address must start with https://')).toBeVisible();

  await address.fill(sim.url);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('No key is set: enter yours in Settings. Nothing was sent.')).toBeVisible();

  const keyField = page.getByRole('textbox', { name: 'API key', exact: true });
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill('sk_not_the_right_one');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(keySection).toContainText('A key is set. The key is kept in memory until Scriptorium stops.');
  await expect(keyField).toHaveValue('');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(
    page.getByText('The service refused the key (HTTP 401): check it and save it again.'),
  ).toBeVisible();

  await keyField.fill(sim.key);
  await keyField.press('Enter');
  await expect(page.getByText('Key saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Test connection' }).click();
  const port = new URL(sim.url).port;
  await expect(page.getByText(`Connected to 127.0.0.1:${port}: the service accepted the key.`)).toBeVisible();
  // Nothing on the page holds the key.
  expect(await page.content()).not.toContain(sim.key);

  await page.getByRole('button', { name: 'Remove key' }).click();
  await expect(keySection).toContainText('No key is set: enter yours in Settings.');
  await expect(page.getByRole('button', { name: 'Remove key' })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('No key is set: enter yours in Settings. Nothing was sent.')).toBeVisible();

  // The address was saved: it is there after a reload.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Service address' })).toHaveValue(sim.url);
});

test('a job started before the key is set waits, says what to do, and runs once the key is saved', async ({
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
  await expect(card.getByText('Paused', { exact: true })).toBeVisible();
  await expect(card).toContainText('Then press Resume.');
  await expect(card).toContainText(/key/i);

  await goTo(page, 'Settings');
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(sim.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('Key saved.')).toBeVisible();
  await goTo(page, 'Jobs');
  await card.getByRole('button', { name: 'Resume', exact: true }).click();
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
