"""door"""
