/**
 * Shell provisioning scripts: the words of each simple command as POSIX sh would make them
 * ({@link dev.dmmodel.impl.plan.shell.ShellLexer}: comments, continuations, quotes, here-documents, literal
 * variables, {@code &&}/{@code ;} lists), and the dispatch of each command to its tool's reader
 * ({@link dev.dmmodel.impl.plan.shell.ShellPlanReader}).
 */
package dev.dmmodel.impl.plan.shell;
