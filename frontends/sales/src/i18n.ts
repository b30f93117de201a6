// The sales remote's messages: each exposed area imports this first, so the catalogue is
// registered however the shell reaches the remote; only the active language's file is fetched.
import { registerCatalogue } from '@bahi/i18n';

registerCatalogue('sales', (lng) => import(`./locales/${lng}.json`));
