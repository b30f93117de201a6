import { Link } from 'react-router-dom';

export function NotFound({ title = 'Page Not Found!', back = '/', backLabel = 'Home' }: { title?: string; back?: string; backLabel?: string }) {
  return (
    <div className="bk-card bk-card__body">
      <h2>{title}</h2>
      <Link className="pu-link" to={back}>
        {backLabel}
      </Link>
    </div>
  );
}
