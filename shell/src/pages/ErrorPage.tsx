import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
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
  const { status, header, message } = describeError(error);
  return (
    <div className="sh-error" data-testid="error-page">
      {status !== undefined && <div className="sh-error__status">{status}</div>}
      <h1>{header}</h1>
      <p>{message}</p>
      {status === 401 ? (
        <Link className="bk-btn bk-btn--primary" to="/loginApp">
          Login
        </Link>
      ) : (
        <Link className="bk-btn bk-btn--primary" to="/">
          Home
        </Link>
      )}
    </div>
  );
}
