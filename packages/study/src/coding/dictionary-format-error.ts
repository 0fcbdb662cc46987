/** A dictionary file that does not fit its layout: which file, which line (1-based; 0: the whole file). */
export class DictionaryFormatError extends Error {
  readonly file: string;
  readonly line: number;
  readonly problem: string;

  constructor(file: string, line: number, problem: string) {
    super(line > 0 ? `${file} line ${line}: ${problem}` : `${file}: ${problem}`);
    this.name = 'DictionaryFormatError';
    this.file = file;
    this.line = line;
    this.problem = problem;
  }
}
