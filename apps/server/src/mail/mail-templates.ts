/** A message ready to send: the same content as plain text and as HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export const PRODUCT_NAME = "Palisade";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text as it may appear inside HTML content or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

// Names come from users; a line break in one must not start a new header or paragraph.
function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").trim();
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * "Monday 30 November 2026 at 21:05 UTC": readers are in any time zone, so it is named; the
 * words are spelled out here rather than by Intl, whose output changes between ICU versions.
 */
export function formatExpiry(date: Date): string {
  const time = `${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")}`;
  return `${DAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} at ${time} UTC`;
}

/** What every message says: a greeting line, what happened, the one thing to do, and until when. */
interface MailContent {
  to: string;
  subject: string;
  /** Paragraphs before the link, plain text. */
  intro: string[];
  /** What to open: usually one link; a choice between links lists each with its label. */
  actions: { label: string; link: string }[];
  expiresAt: Date;
  /** Paragraphs after the link, plain text. */
  outro: string[];
}

function renderMail(content: MailContent): MailMessage {
  const intro = content.intro.map(oneLine);
  const outro = content.outro.map(oneLine);
  const actions = content.actions.map((action) => ({
    label: oneLine(action.label),
    link: oneLine(action.link),
  }));
  const choice = actions.length > 1;
  const expiry = `${choice ? "These links expire" : "This link expires"} on ${formatExpiry(content.expiresAt)}.`;
  const text = [
    ...intro,
    ...actions.map(({ label, link }) => `${label}:\n${link}`),
    expiry,
    ...outro,
    `-- \n${PRODUCT_NAME}`,
  ].join("\n\n");
  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const address = ({ label, link }: { label: string; link: string }) => [
    ...(choice ? [paragraph(`${label}:`)] : []),
    `<p style="margin:0 0 16px;word-break:break-all"><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  ];
  const html = [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(oneLine(content.subject))}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1f2937">',
    ...intro.map(paragraph),
    ...actions.map(
      ({ label, link }) =>
        `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>`,
    ),
    paragraph(
      choice
        ? "If a button does not work, open its address in your browser:"
        : "If the button does not work, open this address in your browser:",
    ),
    ...actions.flatMap(address),
    paragraph(expiry),
    ...outro.map(paragraph),
    `<p style="margin:24px 0 0;color:#6b7280">${escapeHtml(PRODUCT_NAME)}</p>`,
    "</body></html>",
  ].join("\n");
  return { to: oneLine(content.to), subject: oneLine(content.subject), text, html };
}

export interface InvitationMailInput {
  to: string;
  inviterName: string;
  tenantName: string;
  /** The role's name as users see it, e.g. EDITOR. */
  role: string;
  link: string;
  expiresAt: Date;
}

export function invitationMail(input: InvitationMailInput): MailMessage {
  return renderMail({
    to: input.to,
    subject: `${input.inviterName} invited you to ${input.tenantName} on ${PRODUCT_NAME}`,
    intro: [
      `${input.inviterName} invited you to join the tenant ${input.tenantName} on ${PRODUCT_NAME} with the role ${input.role}.`,
      `${PRODUCT_NAME} manages cloud guardrails and the waivers that let work through them. To accept, open the link below and sign in or create your account with this e-mail address (${input.to}).`,
    ],
    actions: [{ label: "Accept the invitation", link: input.link }],
    expiresAt: input.expiresAt,
    outro: [
      `If you did not expect this invitation, you can ignore this message; nothing happens unless you accept.`,
      `After it expires, ask ${input.inviterName} to send a new one.`,
    ],
  });
}

export interface SignInCodeMailInput {
  to: string;
  code: string;
  /** How long the code is accepted, in minutes. */
  validMinutes: number;
  /** Where the code is entered; the sign-in page unless said otherwise. */
  enterOn?: string;
}

/** The one-time sign-in code: no link to follow, so a forwarded or previewed message signs nobody in. */
export function signInCodeMail(input: SignInCodeMailInput): MailMessage {
  const code = oneLine(input.code);
  const intro = `Your ${PRODUCT_NAME} sign-in code is:`;
  const validity = `Enter it on ${input.enterOn ?? "the sign-in page"}. It is valid for ${input.validMinutes} minutes and can be used once.`;
  const ignore = `If you did not ask for a code, you can ignore this message; nobody can sign in without it.`;
  const text = [intro, code, validity, ignore, `-- \n${PRODUCT_NAME}`].join("\n\n");
  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const subject = `Your ${PRODUCT_NAME} sign-in code`;
  const html = [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1f2937">',
    paragraph(intro),
    `<p style="margin:24px 0;font-size:28px;font-weight:600;letter-spacing:6px;font-family:ui-monospace,monospace">${escapeHtml(code)}</p>`,
    paragraph(validity),
    paragraph(ignore),
    `<p style="margin:24px 0 0;color:#6b7280">${escapeHtml(PRODUCT_NAME)}</p>`,
    "</body></html>",
  ].join("\n");
  return { to: oneLine(input.to), subject, text, html };
}

export interface AccountLinkMailInput {
  to: string;
  link: string;
  expiresAt: Date;
}

/** The password reset link. Sent only to an existing account; the page answers the same either way. */
export function passwordResetMail(input: AccountLinkMailInput): MailMessage {
  return renderMail({
    to: input.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    intro: [
      `Someone asked to reset the password of the ${PRODUCT_NAME} account ${input.to}.`,
      `To choose a new password, open the link below. It works once; every device signed in to the account is signed out.`,
    ],
    actions: [{ label: "Choose a new password", link: input.link }],
    expiresAt: input.expiresAt,
    outro: [
      `If you did not ask for this, you can ignore this message; your password stays as it is.`,
      `After the link expires, ask for a new one from the sign-in page ("Forgot password?").`,
    ],
  });
}

/** The link that proves a new account's address; it signs the account in. */
export function verifyAddressMail(input: AccountLinkMailInput): MailMessage {
  return renderMail({
    to: input.to,
    subject: `Confirm your e-mail address for ${PRODUCT_NAME}`,
    intro: [
      `An account on ${PRODUCT_NAME} was created with this e-mail address (${input.to}).`,
      `To confirm the address and sign in, open the link below. Until then the account cannot sign in.`,
    ],
    actions: [{ label: "Confirm my address", link: input.link }],
    expiresAt: input.expiresAt,
    outro: [
      `If you did not create this account, you can ignore this message; the account stays unusable.`,
      `After the link expires, sign in with your password to be sent a new one.`,
    ],
  });
}

/** The one-time sign-in link; it opens a page whose button signs the account in. */
export function magicLinkMail(input: AccountLinkMailInput): MailMessage {
  return renderMail({
    to: input.to,
    subject: `Your ${PRODUCT_NAME} sign-in link`,
    intro: [
      `Someone asked to sign in to ${PRODUCT_NAME} as ${input.to} without a password.`,
      `To sign in, open the link below. It works once.`,
    ],
    actions: [{ label: "Sign in to Palisade", link: input.link }],
    expiresAt: input.expiresAt,
    outro: [
      `If you did not ask for this, you can ignore this message; nobody can sign in without the link.`,
      `After the link expires, ask for a new one on the sign-in page.`,
    ],
  });
}

export interface EnchantedLinkMailInput {
  to: string;
  /** One link per number, one of them the number the sign-in page shows. */
  choices: { number: number; link: string }[];
  expiresAt: Date;
}

/**
 * The enchanted link: three links, each with a number. The one with the number shown on the
 * page that asked signs that page in; any other ends the request.
 */
export function enchantedLinkMail(input: EnchantedLinkMailInput): MailMessage {
  return renderMail({
    to: input.to,
    subject: `Confirm your ${PRODUCT_NAME} sign-in`,
    intro: [
      `Someone asked to sign in to ${PRODUCT_NAME} as ${input.to} without a password.`,
      `The sign-in page shows a number. Open the link below with that number: the page that asked signs in by itself. Any other link cancels the sign-in.`,
    ],
    actions: input.choices.map(({ number, link }) => ({ label: `Number ${number}`, link })),
    expiresAt: input.expiresAt,
    outro: [
      `If you did not ask to sign in, or do not see the page with the number, open none of the links; nobody is signed in without the right one.`,
      `Each link works once. After they expire, ask for new ones on the sign-in page.`,
    ],
  });
}
