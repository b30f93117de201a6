export interface CreateCompanyForm {
  cName: string;
  cAdd: string;
  cMob: string;
  mName: string;
  mEmail: string;
}

// Spec 001 §5: company name, address, mobile and manager name are required; the manager's
// e-mail is their login, so it is required too.
const REQUIRED: (keyof CreateCompanyForm)[] = ['cName', 'cAdd', 'cMob', 'mName', 'mEmail'];

/** True when a required field is empty or only spaces ('Please fill all required fields.'). */
export function missingRequired(form: CreateCompanyForm): boolean {
  return REQUIRED.some((k) => !form[k]?.trim());
}
