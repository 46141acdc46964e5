"""(rule family under construction)"""
