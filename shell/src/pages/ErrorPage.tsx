import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError } from '@bahi/ui-kit';

interface ErrorContent {
  status?: number;
  header: string;
  message: string;
}

export function describeError(error: unknown): ErrorContent {
  if (isRouteErrorResponse(error)) {
    const data = (error.data ?? {}) as Partial<ErrorContent>;
    if (error.status === 404 && !data.header) return { status: 404, header: 'Unexpected Application Error!', message: 'Page Not Found!' };
    return { status: error.status, header: data.header ?? 'An error occured!', message: data.message ?? 'Something went wrong!' };
  }
  if (error instanceof ApiError) return { status: error.status || undefined, header: 'An error occured!', message: error.message || 'Something went wrong!' };
  // A render error or anything else thrown while rendering.
  return { header: 'Unexpected Application Error!', message: 'Something went wrong!' };
}

/** The error page (spec 000 §2): status, header, message; 401 links to Login, else Home. */
export function ErrorPage() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  const { t } = useTranslation('shell');
  const { status, header: headerEn, message: messageEn } = describeError(error);
  // describeError speaks the spec's English; the page shows it in the active language.
  const known: Record<string, string> = {
    'Unexpected Application Error!': t('error.unexpected'),
    'Page Not Found!': t('error.notFound'),
    'An error occured!': t('error.occured'),
    'Something went wrong!': t('error.wrong'),
    'Not allowed': t('error.notAllowed'),
    'This page is for managers only.': t('error.managersOnly'),
  };
  const header = known[headerEn] ?? translateServerMessage(headerEn);
  const message = known[messageEn] ?? translateServerMessage(messageEn);
  return (
    <div className="sh-error" data-testid="error-page">
      {status !== undefined && <div className="sh-error__status">{status}</div>}
      <h1>{header}</h1>
      <p>{message}</p>
      {status === 401 ? (
        <Link className="bk-btn bk-btn--primary" to="/loginApp">
          {t('error.login')}
        </Link>
      ) : (
        <Link className="bk-btn bk-btn--primary" to="/">
          {t('error.home')}
        </Link>
      )}
    </div>
  );
}
