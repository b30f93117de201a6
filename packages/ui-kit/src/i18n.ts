// The shared components' messages (namespace `ui`). ui-kit is one federation singleton, so this
// registers once; it loads at once because nearly every screen shows a ui-kit text.
import { i18n, registerCatalogue } from '@bahi/i18n';

registerCatalogue('ui', (lng) => import(`./locales/${lng}.json`));
void i18n.loadNamespaces('ui');
