import type { ReactNode } from "react";
import { Card, CardContent } from "../ui/card";
import { PageHeader } from "./page-header";

/** A text page (terms, privacy, about): a title, a date or subtitle, and numbered sections. */
export function TextPage({
  title,
  description,
  sections,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  sections: { heading: ReactNode; body: ReactNode }[];
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader title={title} description={description} />
      <Card>
        <CardContent className="grid gap-6 pt-6">
          {sections.map((s, i) => (
            <section key={i}>
              <h2 className="text-lg font-semibold">{s.heading}</h2>
              <div className="mt-1 text-sm leading-relaxed text-slate-700">{s.body}</div>
            </section>
          ))}
          {children}
        </CardContent>
      </Card>
    </div>
  );
}
