/* barrierpair annotations in macro form: what the comments
 *
 *   barrierpair: ignore <rule>: <reason>
 *   barrierpair: pairs with <function>
 *
 * say, for code whose comments are stripped or rewritten by its tools.
 * barrierpair reads them from the source text; the compiler sees a statement
 * that does nothing, so the object code is the same with or without them,
 * with any compiler. docs/annotations.md describes both forms.
 *
 *   BARRIERPAIR_IGNORE("weak-barrier", "the LKMM proves this cycle safe");
 *   cmm_smp_rmb();
 *
 *   BARRIERPAIR_PAIRS_WITH(reader);
 *   cmm_smp_wmb();
 *
 * Each applies to findings (or the barrier) on its own line or on the next
 * line with code. The rule and the reason are string literals (adjacent
 * literals join); the function is a plain name, which need not be declared.
 */
#ifndef BARRIERPAIR_ANNOTATE_H
#define BARRIERPAIR_ANNOTATE_H

#define BARRIERPAIR_IGNORE(...) ((void)0)
#define BARRIERPAIR_PAIRS_WITH(function) ((void)0)

#endif
