"""Word frequencies, greedy and justified text wrapping, and a tiny report."""

TEXT = """
Beautiful is better than ugly. Explicit is better than implicit.
Simple is better than complex. Complex is better than complicated.
Flat is better than nested. Sparse is better than dense.
Readability counts. Special cases aren't special enough to break the rules.
Although practicality beats purity. Errors should never pass silently.
Unless explicitly silenced. In the face of ambiguity, refuse the temptation to guess.
"""

STOP_WORDS = {"is", "than", "the", "to", "of", "in", "aren't"}


def words_of(text):
    words = []
    for raw in text.split():
        word = raw.strip(".,;:!?\"()").lower()
        if word:
            words.append(word)
    return words


def frequencies(words):
    counts = {}
    for word in words:
        if word in STOP_WORDS:
            continue
        counts[word] = counts.get(word, 0) + 1
    return sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))


def wrap(words, width):
    lines, line = [], []
    length = 0
    for word in words:
        if len(word) > width:
            raise ValueError(f"word {word!r} is longer than {width}")
        extra = len(word) + (1 if line else 0)
        if length + extra > width:
            lines.append(line)
            line, length = [word], len(word)
        else:
            line.append(word)
            length += extra
    if line:
        lines.append(line)
    return lines


def justify(line, width, last=False):
    if last or len(line) == 1:
        return " ".join(line).ljust(width)
    gaps = len(line) - 1
    spaces = width - sum(map(len, line))
    base, wider = divmod(spaces, gaps)
    out = ""
    for i, word in enumerate(line[:-1]):
        out += word + " " * (base + (1 if i < wider else 0))
    return out + line[-1]


def boxed(lines, width):
    """The lines in a box; the box is drawn even if a line is too long."""
    out = ["+" + "-" * (width + 2) + "+"]
    try:
        for line in lines:
            if len(line) > width:
                raise OverflowError(f"line of {len(line)} characters in a box of {width}")
            out.append(f"| {line} |")
    finally:
        out.append("+" + "-" * (width + 2) + "+")
    return out


Recorder = type("Recorder", (), {
    "__enter__": lambda self: self.events.append("enter") or self,
    "__exit__": lambda self, kind, value, tb: (
        self.events.append(f"exit {kind.__name__ if kind else None}"),
        kind is OverflowError,
    )[1],
    "events": [],
})


def report(width):
    words = words_of(TEXT)
    top = frequencies(words)[:6]
    print(f"{len(words)} words, {len(frequencies(words))} distinct (without stop words)")
    for rank, (word, count) in enumerate(top, 1):
        print(f"  {rank}. {word:<12} {'#' * count} {count}")
    lines = wrap(words, width)
    shown = []
    for i, line in enumerate(lines):
        shown.append(justify(line, width, last=i == len(lines) - 1))
    recorder = Recorder()
    with recorder:
        for row in boxed(shown, width):
            print(row)
        print("\n".join(boxed(["this line does not fit at all"], 10)))
    print("context manager saw:", recorder.events)
    with memoryview(" ".join(words[:3]).encode()) as view:
        print("first bytes:", view[:9].tobytes(), "length", len(view))
    try:
        wrap(["incomprehensibilities"], 10)
    except ValueError as error:
        print("error:", error)


report(36)
