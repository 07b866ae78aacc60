import { ErrorMessage } from '../../components/ErrorMessage';
import { ScreenHeading } from '../../components/ScreenHeading';
import { useSettings } from '../../stores';
import { CorpusDefaultsSection } from './CorpusDefaultsSection';
import { DefaultsSection } from './DefaultsSection';
import { BillingSection } from './BillingSection';
import { ConnectionSection } from './ConnectionSection';
import { KeepCurrentSection } from './KeepCurrentSection';
import { UpdatesSection } from './UpdatesSection';

export function SettingsScreen() {
  const settings = useSettings((state) => state.settings);
  const loadError = useSettings((state) => state.loadError);
  return (
    <>
      <ScreenHeading>Settings</ScreenHeading>
      <ErrorMessage error={loadError} />
      {settings !== null && <ConnectionSection saved={settings.serviceUrl} />}
      {settings !== null && <BillingSection settings={settings} />}
      {settings !== null && <DefaultsSection defaults={settings.defaults} />}
      {settings !== null && <CorpusDefaultsSection corpus={settings.corpus} />}
      {settings !== null && <KeepCurrentSection settings={settings.keepCurrent} />}
      {settings !== null && <UpdatesSection settings={settings.updates} />}
    </>
  );
}
