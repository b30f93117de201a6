import { createContext, useContext, type ReactNode } from 'react';
import i18next, { type TFunction } from 'i18next';
import ICU from 'i18next-icu';
import { BadRequestException } from '@nestjs/common';
import { amountInWords, amountInWordsHindi } from '@bahi/gst';
import { Languages, type Language } from '@bahi/contracts';
import en from '../locales/en.json';
import hi from '../locales/hi.json';

export type { Language };

/** The printed labels of one language: `t('bill.heading')`, ICU messages (`{id}`, plurals). */
export type DocT = TFunction;

const CATALOGUES: Record<Language, object> = { en, hi };

// One i18next instance per language, made and loaded once: a render only looks a label up.
const instances = new Map<Language, DocT>();

export function textFor(lang: Language): DocT {
  let t = instances.get(lang);
  if (!t) {
    const inst = i18next.createInstance();
    inst.use(ICU).init({
      lng: lang,
      // A label missing from a catalogue prints its key (the catalogue test fails first), never the other language.
      fallbackLng: false,
      resources: { [lang]: { translation: CATALOGUES[lang] } },
      initAsync: false,
      returnNull: false,
      interpolation: { escapeValue: false },
    });
    t = inst.t.bind(inst) as DocT;
    instances.set(lang, t);
  }
  return t;
}

/** `?lang=` of a document: 'en' or 'hi'; absent or empty: the company's doc_language. */
export function parseLang(raw: string | undefined): Language | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(Languages as readonly string[]).includes(raw)) throw new BadRequestException(`lang must be one of ${Languages.join(', ')}.`);
  return raw as Language;
}

/** An amount in words in the document's language (Indian numbering in both). */
export function inWords(lang: Language, value: string | number): string {
  return lang === 'hi' ? amountInWordsHindi(value) : amountInWords(value);
}

/** The language a company's documents print in when no ?lang= is given. */
export const langOf = (company: { docLanguage?: Language }): Language => company.docLanguage ?? 'en';

/** The labels of a company's documents (for a template's own body; its parts use useT()). */
export const tOf = (company: { docLanguage?: Language }): DocT => textFor(langOf(company));

interface DocText {
  lang: Language;
  t: DocT;
}

const Ctx = createContext<DocText>({ lang: 'en', t: textFor('en') });

/** Gives the document's language to every part of a template (Html provides it). */
export function DocLanguage(props: { lang: Language; children: ReactNode }) {
  return <Ctx.Provider value={{ lang: props.lang, t: textFor(props.lang) }}>{props.children}</Ctx.Provider>;
}

/** The labels of the document being rendered. */
export function useT(): DocT {
  return useContext(Ctx).t;
}

export function useLang(): Language {
  return useContext(Ctx).lang;
}
