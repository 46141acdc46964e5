"""A tiny calculator: a tokenizer and a recursive-descent evaluator.

Grammar:
    statement := NAME "=" expr | expr
    expr      := term (("+" | "-") term)*
    term      := unary (("*" | "/" | "//" | "%") unary)*
    unary     := "-" unary | power
    power     := atom ("**" unary)?
    atom      := NUMBER | NAME | NAME "(" args ")" | "(" expr ")"
"""

DIGITS = "0123456789"
LETTERS = "abcdefghijklmnopqrstuvwxyz_"
SYMBOLS = {"+", "-", "*", "/", "%", "(", ")", "=", ","}

BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "**": lambda a, b: a ** b,
}

FUNCTIONS = {
    "abs": abs,
    "max": max,
    "min": min,
    "round": round,
}


def tokenize(text):
    """Split ``text`` into (kind, value) pairs."""
    tokens = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == " ":
            i += 1
            continue
        if ch in DIGITS or ch == ".":
            start = i
            while i < len(text) and (text[i] in DIGITS or text[i] == "."):
                i += 1
            literal = text[start:i]
            tokens.append(("num", float(literal) if "." in literal else int(literal)))
        elif ch in LETTERS:
            start = i
            while i < len(text) and (text[i] in LETTERS or text[i] in DIGITS):
                i += 1
            tokens.append(("name", text[start:i]))
        elif text[i:i + 2] in ("**", "//"):
            tokens.append(("op", text[i:i + 2]))
            i += 2
        elif ch in SYMBOLS:
            tokens.append(("op", ch))
            i += 1
        else:
            raise SyntaxError(f"unexpected character {ch!r} at column {i + 1}")
    tokens.append(("end", None))
    return tokens


def evaluate(text, variables):
    tokens = tokenize(text)
    position = 0

    def peek():
        return tokens[position]

    def advance():
        nonlocal position
        token = tokens[position]
        position += 1
        return token

    def expect(value):
        kind, found = advance()
        if found != value:
            raise SyntaxError(f"expected {value!r}, found {found!r}")

    def expr():
        value = term()
        while peek()[1] in ("+", "-"):
            _, op = advance()
            value = BINARY[op](value, term())
        return value

    def term():
        value = unary()
        while peek()[1] in ("*", "/", "//", "%"):
            _, op = advance()
            value = BINARY[op](value, unary())
        return value

    def unary():
        if peek()[1] == "-":
            advance()
            return -unary()
        return power()

    def power():
        base = atom()
        if peek()[1] == "**":
            advance()
            return BINARY["**"](base, unary())
        return base

    def atom():
        kind, value = advance()
        if kind == "num":
            return value
        if kind == "name":
            if peek()[1] == "(":
                advance()
                args = [expr()]
                while peek()[1] == ",":
                    advance()
                    args.append(expr())
                expect(")")
                if value not in FUNCTIONS:
                    raise NameError(f"no function {value!r}")
                return FUNCTIONS[value](*args)
            try:
                return variables[value]
            except KeyError:
                raise NameError(f"undefined variable {value!r}") from None
        if value == "(":
            inner = expr()
            expect(")")
            return inner
        raise SyntaxError(f"unexpected {value!r}")

    target = None
    if len(tokens) > 2 and tokens[0][0] == "name" and tokens[1][1] == "=":
        target = tokens[0][1]
        position = 2
    result = expr()
    if peek()[0] != "end":
        raise SyntaxError(f"trailing input at {peek()[1]!r}")
    if target is not None:
        variables[target] = result
    return result


def session(lines):
    variables = {"pi": 3.141592653589793}
    for number, line in enumerate(lines, start=1):
        try:
            value = evaluate(line, variables)
        except (SyntaxError, NameError) as error:
            print(f"{number:>2}: {line:<24} error: {error}")
        except ZeroDivisionError:
            print(f"{number:>2}: {line:<24} error: division by zero")
        else:
            shown = f"{value:.6g}" if isinstance(value, float) else str(value)
            print(f"{number:>2}: {line:<24} = {shown}")
    shown = []
    for name in sorted(variables):
        shown.append(f"{name}={variables[name]!r}")
    print("variables:", ", ".join(shown))


session([
    "1 + 2 * 3",
    "(1 + 2) * 3",
    "2 ** 3 ** 2",
    "-2 ** 2",
    "2 ** -1",
    "7 // 2 + 7 % 2",
    "x = 10 / 4",
    "y = x * 2 - 1",
    "max(x, y, 3) + abs(-4)",
    "round(pi * 100) / 100",
    "1 / (y - 4)",
    "z + 1",
    "2 $ 3",
    "(1 + 2",
    "sqrt(4)",
])
