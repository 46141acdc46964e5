def shout(words):
    return " ".join(word.upper() + "!" for word in words) or "(nothing)"
