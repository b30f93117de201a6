// The shell's catalogue and how a language switch is remembered: on the server for a signed-in
// user (PUT /profile/language), on this browser always (the login page speaks it).
import { registerCatalogue, setLanguagePersister } from '@bahi/i18n';
import { api, getToken } from '@bahi/ui-kit';

registerCatalogue('shell', (lng) => import(`./locales/${lng}.json`));

setLanguagePersister(async (language) => {
  if (getToken()) await api.put('/profile/language', { language });
});
