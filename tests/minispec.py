"""The smallest valid spec, shared by the tests that write one by hand.

Its text is fixed (tests assert lines and columns in it): seven lines up to
``hand:``, then the steps, then the ``end`` line.
"""

HEAD = """spelbok: 1
name: Mini
players: {min: 2, max: 4}
deck:
  - players: [2, 4]
    ranks: [A, K, Q, J, 10, 9, 8, 7]
hand:
"""
STEPS = "  - deal: {size: 5}\n  - tricks: {}\n"
END = 'end: {when: "hand_number >= 3", winners: "tricks == max(tricks)"}\n'


def mini(steps: str = STEPS) -> str:
    """A mini spec whose hand is ``steps`` (YAML list items, each line ending in a newline)."""
    return HEAD + steps + END


MINI = mini()
