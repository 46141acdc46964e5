"""(helpers under construction)"""
